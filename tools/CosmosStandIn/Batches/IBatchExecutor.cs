using Loader.CosmosStandIn.Partitioning;
using Loader.CosmosStandIn.Upstream;

namespace Loader.CosmosStandIn.Batches;

/// <summary>
/// Runs operations the budget has let in: on cosmosdb-server (<see cref="UpstreamBatchExecutor"/>), or answered at
/// once with nothing stored (the instant mode's <c>InstantBatchExecutor</c>).
/// </summary>
public interface IBatchExecutor
{
    /// <summary>An atomic batch of one logical partition: all of it or none, 200 or 207 (one failure, 424 for the rest).</summary>
    Task<BatchAnswer> ExecuteTransactionAsync(ContainerPath container, PartitionKeyValue key, IReadOnlyList<PlannedOperation> operations, CancellationToken cancellationToken);

    /// <summary>Operations of a bulk request, each standing alone; the answer's results are parallel to <paramref name="operations"/>.</summary>
    Task<BatchAnswer> ExecuteBulkAsync(ContainerPath container, IReadOnlyList<PlannedOperation> operations, CancellationToken cancellationToken);

    /// <summary>The item with <paramref name="id"/> in the logical partition <paramref name="key"/>: 200 with it, or 404.</summary>
    Task<UpstreamResult> ReadAsync(ContainerPath container, PartitionKeyValue key, string id, CancellationToken cancellationToken);
}
