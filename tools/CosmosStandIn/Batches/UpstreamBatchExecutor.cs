using Loader.CosmosStandIn.Partitioning;
using Loader.CosmosStandIn.Upstream;

namespace Loader.CosmosStandIn.Batches;

/// <summary>Operations run on cosmosdb-server: atomic batches by <see cref="TransactionalBatchExecutor"/>, bulk by <see cref="BulkExecutor"/>, reads by key.</summary>
public sealed class UpstreamBatchExecutor(CosmosDbServerClient upstream, TransactionalBatchExecutor transactions, BulkExecutor bulk) : IBatchExecutor
{
    public Task<BatchAnswer> ExecuteTransactionAsync(ContainerPath container, PartitionKeyValue key, IReadOnlyList<PlannedOperation> operations, CancellationToken cancellationToken) =>
        transactions.ExecuteAsync(container, key, operations, cancellationToken);

    public Task<BatchAnswer> ExecuteBulkAsync(ContainerPath container, IReadOnlyList<PlannedOperation> operations, CancellationToken cancellationToken) =>
        bulk.ExecuteAsync(container, operations, cancellationToken);

    public async Task<UpstreamResult> ReadAsync(ContainerPath container, PartitionKeyValue key, string id, CancellationToken cancellationToken) =>
        (await upstream.ExecuteAsync(container, [new UpstreamOperation("Read", key, id)], continueOnError: true, cancellationToken).ConfigureAwait(false))[0];
}
