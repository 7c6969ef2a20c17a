using Loader.ThrottlingSimulator;

namespace Loader.Benchmarks;

/// <summary>
/// A store behind a request-unit budget for one run of <c>throttle</c>: Azurite behind the throttling simulator
/// (Cosmos DB for Table), or cosmosdb-server behind the Cosmos DB stand-in (Cosmos DB for NoSQL through the real SDK).
/// </summary>
internal interface IThrottledService : IAsyncDisposable
{
    /// <summary>What the store is, for the output.</summary>
    string Description { get; }

    /// <summary>The loader's settings that send a load to this store.</summary>
    IReadOnlyList<string> LoaderArguments { get; }

    /// <summary>The store's own process (Azurite, cosmosdb-server), to measure the CPU it used.</summary>
    int? StorePid { get; }

    /// <summary>What the front counted, in the throttling simulator's terms: batch requests, 429s, RU charged.</summary>
    SimulatorStatsSnapshot Counted();

    /// <summary>How many rows the store holds afterwards; null when the target was never created.</summary>
    Task<long?> CountStoredAsync(CancellationToken cancellationToken);
}
