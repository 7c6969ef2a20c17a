using Loader.CosmosStandIn.Partitioning;
using Loader.CosmosStandIn.Upstream;
using Loader.CosmosStandIn.Wire;

namespace Loader.CosmosStandIn.Batches;

/// <summary>
/// Runs an atomic batch all or nothing on cosmosdb-server, by <b>validate, then apply</b>: under the logical
/// partition's lock it reads the stored state of every item the batch touches (one request), plays the operations
/// against that state in order (<see cref="OperationPlayer"/>), and only when all of them pass sends the writes,
/// a patch as the replace of the item it patched. A failed batch therefore writes nothing at all, so no reader ever
/// sees half of it. Should the writes still fail part way (an item changed by a request that bypasses the lock, or
/// cosmosdb-server failing), the items written so far are put back as they were read (<b>rollback</b>): deleted if
/// they were new, rewritten otherwise.
/// </summary>
public sealed class TransactionalBatchExecutor(CosmosDbServerClient upstream, PartitionLocks locks, OperationPlayer player)
{
    public async Task<BatchAnswer> ExecuteAsync(ContainerPath container, PartitionKeyValue key, IReadOnlyList<PlannedOperation> operations, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(container);
        ArgumentNullException.ThrowIfNull(key);
        ArgumentNullException.ThrowIfNull(operations);
        var total = operations.Sum(operation => operation.Cost);
        for (var i = 0; i < operations.Count; i++)
        {
            if (operations[i].Refusal is { } refusal)
            {
                return BatchAnswer.FailedTransaction(operations.Count, i, refusal, total);
            }
        }

        using var held = await locks.EnterAsync(container.Link, key.Canonical, cancellationToken).ConfigureAwait(false);
        var before = await StoredItems.ReadAsync(upstream, container, operations, cancellationToken).ConfigureAwait(false);
        var played = player.Play(operations, before, atomic: true);
        var failure = played.Select((result, index) => (result, index)).FirstOrDefault(pair => pair.result?.Refusal is not null);
        if (failure.result is not null)
        {
            return BatchAnswer.FailedTransaction(operations.Count, failure.index, failure.result.Refusal!, total);
        }

        // From here on the batch runs to its end even if the client goes away, as a committed transaction does: a
        // write abandoned half way (or a rollback never made) would leave part of the batch applied.
        var applied = await upstream.ExecuteAsync(container, played.Select(result => result!.Upstream!).ToList(), continueOnError: false, CancellationToken.None).ConfigureAwait(false);
        var failed = applied.Select((result, index) => (result, index)).FirstOrDefault(pair => !pair.result.IsSuccess && pair.result.StatusCode != 424);
        if (failed.result is not null)
        {
            await RollBackAsync(container, key, operations.Take(failed.index).Select(operation => operation.Id), before).ConfigureAwait(false);
            return BatchAnswer.FailedTransaction(operations.Count, failed.index, ServiceAnswers.Refused(failed.result.StatusCode, "Failed", ServiceAnswers.Text(failed.result.Body)), total);
        }

        var results = new BatchOperationResult[operations.Count];
        var ttls = new string?[operations.Count];
        for (var i = 0; i < operations.Count; i++)
        {
            results[i] = Succeeded(operations[i], applied[i], played[i]!.Cost);
            ttls[i] = played[i]!.Ttl;
        }

        return BatchAnswer.Of(results) with { Ttls = ttls };
    }

    /// <summary>The answer to an operation that ran: its status, ETag, charge, and the item unless the client asked for none.</summary>
    public static BatchOperationResult Succeeded(PlannedOperation operation, UpstreamResult result, double charge)
    {
        ArgumentNullException.ThrowIfNull(operation);
        ArgumentNullException.ThrowIfNull(result);
        return new(result.StatusCode,
            ETag: result.ETag,
            Body: operation.Operation.MinimalReturn && operation.Operation.Type != BatchOperationType.Read ? default : result.Body,
            RequestCharge: charge);
    }

    /// <summary>Puts the items written before a failure back as they were read.</summary>
    private async Task RollBackAsync(ContainerPath container, PartitionKeyValue key, IEnumerable<string> written, IReadOnlyDictionary<(string PartitionKey, string Id), UpstreamResult> before)
    {
        var restore = written.Distinct(StringComparer.Ordinal)
            .Select(id => before[(key.Canonical, id)] is { IsSuccess: true } stored
                ? new UpstreamOperation("Upsert", key, id, stored.Body)
                : new UpstreamOperation("Delete", key, id))
            .ToList();
        if (restore.Count > 0)
        {
            await upstream.ExecuteAsync(container, restore, continueOnError: true, CancellationToken.None).ConfigureAwait(false);
        }
    }
}
