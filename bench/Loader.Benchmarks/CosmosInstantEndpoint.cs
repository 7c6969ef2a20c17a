using Loader.CosmosStandIn;

namespace Loader.Benchmarks;

/// <summary>
/// The Cosmos DB stand-in in instant mode, budget off and no cosmosdb-server: every transactional batch and bulk
/// request is answered at once in the service's shape (HybridRow results, charge, session token), so the loader
/// is measured through the real SDK in Gateway mode, in <c>Loader:Cosmos:Mode</c> TransactionalBatch and Bulk.
/// </summary>
internal sealed class CosmosInstantEndpoint(StandInHost standIn) : IInstantEndpoint
{
    private const string Database = "bench";

    /// <summary>What one core should drive through the SDK in either mode: a Cosmos DB load's own ceiling is not to be the bottleneck.</summary>
    private const double RowsPerSecondTarget = 20_000;

    public string Description => "the Cosmos DB stand-in in instant mode, budget off (`--instant true`), no cosmosdb-server";

    public IReadOnlyList<InstantVariant> Variants { get; } =
    [
        new("Cosmos DB TransactionalBatch", "transactional", null, LoaderArguments.Cosmos(standIn, Database, "TransactionalBatch"), RowsPerSecondTarget),
        new("Cosmos DB Bulk", "bulk", null, LoaderArguments.Cosmos(standIn, Database, "Bulk"), RowsPerSecondTarget),
    ];

    public static async Task<CosmosInstantEndpoint> StartAsync(CancellationToken cancellationToken) =>
        new(await StandInHost.StartAsync(new StandInOptions { Instant = true }, cancellationToken));

    public void Reset() => standIn.Reset();

    public (long Requests, long Rows) Counted()
    {
        var stats = standIn.Stats.Snapshot();
        return (stats.BatchRequests - stats.ThrottledRequests, stats.OperationsApplied);
    }

    public ValueTask DisposeAsync() => standIn.DisposeAsync();
}
