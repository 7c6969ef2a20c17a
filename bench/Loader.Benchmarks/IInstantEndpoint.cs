namespace Loader.Benchmarks;

/// <summary>
/// A service that costs nothing for <c>instant</c>, in this process: the throttling simulator in instant mode (Table
/// Storage) or the Cosmos DB stand-in in instant mode. It answers every batch at once and counts what it was sent.
/// </summary>
internal interface IInstantEndpoint : IAsyncDisposable
{
    /// <summary>What it is, for the output.</summary>
    string Description { get; }

    /// <summary>The loaders measured against it, in the order of the first turn.</summary>
    IReadOnlyList<InstantVariant> Variants { get; }

    /// <summary>Zeroes its counters before a run.</summary>
    void Reset();

    /// <summary>The batch requests it answered with success, and the rows (entities, items) in them.</summary>
    (long Requests, long Rows) Counted();
}

/// <summary>One loader measured against an instant endpoint.</summary>
/// <param name="Name">How the tables name it.</param>
/// <param name="File">Its reports' and logs' file name stem.</param>
/// <param name="LoaderDll">Another build's Loader.Worker.dll; null runs this build's.</param>
/// <param name="Target">The loader arguments that send the load to the endpoint.</param>
/// <param name="RowsPerSecondTarget">The median rows/s it must reach; null when it is only a baseline.</param>
internal sealed record InstantVariant(string Name, string File, string? LoaderDll, IReadOnlyList<string> Target, double? RowsPerSecondTarget);
