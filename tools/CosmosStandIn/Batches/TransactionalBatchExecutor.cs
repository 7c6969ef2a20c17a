using Loader.CosmosStandIn.Upstream;
using Loader.CosmosStandIn.Wire;

namespace Loader.CosmosStandIn.Batches;

/// <summary>
/// Runs an atomic batch all or nothing, by <b>validate, then apply</b>: under the partition's lock it reads the
/// stored state of every item the batch touches (one request), plays the operations against that state in
/// order (a create over an existing id is 409, a replace or read of a missing one 404, an If-Match on another
/// ETag 412, later operations seeing what earlier ones did), and only when all of them pass sends the writes.
/// A failed batch therefore writes nothing at all, so no reader ever sees half of it. Should the writes still
/// fail part way (an item changed by a request that bypasses the lock, or cosmosdb-server failing), the items
/// written so far are put back as they were read (<b>rollback</b>): deleted if they were new, rewritten otherwise.
/// </summary>
public sealed class TransactionalBatchExecutor(CosmosDbServerClient upstream, PartitionLocks locks)
{
    public async Task<BatchAnswer> ExecuteAsync(ContainerPath container, string partitionKeyJson, IReadOnlyList<PlannedOperation> operations, CancellationToken cancellationToken)
    {
        var total = operations.Sum(operation => operation.Cost);
        for (var i = 0; i < operations.Count; i++)
        {
            if (operations[i].Refusal is { } refusal)
            {
                return Failed(operations.Count, i, refusal, total);
            }
        }

        using var held = await locks.EnterAsync(container.Link, partitionKeyJson, cancellationToken).ConfigureAwait(false);
        var ids = operations.Select(operation => operation.Id).Distinct(StringComparer.Ordinal).ToList();
        var stored = await upstream.ExecuteAsync(container, ids.Select(id => new UpstreamOperation("Read", partitionKeyJson, id)).ToList(), continueOnError: true, cancellationToken).ConfigureAwait(false);
        var before = new Dictionary<string, UpstreamResult>(StringComparer.Ordinal);
        for (var i = 0; i < ids.Count; i++)
        {
            before[ids[i]] = stored[i];
        }

        if (Validate(operations, before) is { } failure)
        {
            return Failed(operations.Count, failure.Index, failure.Result, total);
        }

        // From here on the batch runs to its end even if the client goes away, as a committed transaction does: a
        // write abandoned half way (or a rollback never made) would leave part of the batch applied.
        var applied = await upstream.ExecuteAsync(container, operations.Select(operation => operation.ToUpstream()).ToList(), continueOnError: false, CancellationToken.None).ConfigureAwait(false);
        var failed = applied.Select((result, index) => (result, index)).FirstOrDefault(pair => !pair.result.IsSuccess && pair.result.StatusCode != 424);
        if (failed.result is not null)
        {
            await RollBackAsync(container, partitionKeyJson, operations.Take(failed.index).Select(operation => operation.Id), before).ConfigureAwait(false);
            return Failed(operations.Count, failed.index, ServiceAnswers.Refused(failed.result.StatusCode, "Failed", ServiceAnswers.Text(failed.result.Body)), total);
        }

        var results = new BatchOperationResult[operations.Count];
        for (var i = 0; i < operations.Count; i++)
        {
            results[i] = Succeeded(operations[i], applied[i]);
        }

        return BatchAnswer.Of(results);
    }

    /// <summary>The answer to an operation that ran: its status, ETag, charge, and the item unless the client asked for none.</summary>
    public static BatchOperationResult Succeeded(PlannedOperation operation, UpstreamResult result) =>
        new(result.StatusCode,
            ETag: result.ETag,
            Body: operation.Operation.MinimalReturn && operation.Operation.Type != BatchOperationType.Read ? default : result.Body,
            RequestCharge: operation.Cost);

    /// <summary>The first operation that would fail against the stored items, playing the batch in order.</summary>
    private static (int Index, BatchOperationResult Result)? Validate(IReadOnlyList<PlannedOperation> operations, Dictionary<string, UpstreamResult> stored)
    {
        // What each item would be after the operations so far: its ETag, or null when it would not exist. An
        // item written in this batch gets an ETag no client can know yet.
        var state = stored.ToDictionary(pair => pair.Key, pair => pair.Value.IsSuccess ? pair.Value.ETag ?? "" : null, StringComparer.Ordinal);
        for (var i = 0; i < operations.Count; i++)
        {
            var operation = operations[i];
            var etag = state[operation.Id];
            var exists = etag is not null;
            var ifMatch = operation.Operation.IfMatch;
            var ifNoneMatch = operation.Operation.IfNoneMatch;
            BatchOperationResult? refusal = operation.Operation.Type switch
            {
                BatchOperationType.Create when exists => ServiceAnswers.Conflict(),
                BatchOperationType.Replace or BatchOperationType.Read or BatchOperationType.Delete when !exists => ServiceAnswers.NotFound(),
                _ when exists && ifMatch is not null && ifMatch != etag => ServiceAnswers.PreconditionFailed(),
                _ when !exists && ifMatch is not null && operation.Operation.Type == BatchOperationType.Upsert => ServiceAnswers.PreconditionFailed(),
                _ when exists && ifNoneMatch is not null && (ifNoneMatch == "*" || ifNoneMatch == etag) && operation.Writes => ServiceAnswers.PreconditionFailed(),
                _ => null,
            };
            if (refusal is not null)
            {
                return (i, refusal);
            }

            state[operation.Id] = operation.Operation.Type switch
            {
                BatchOperationType.Delete => null,
                BatchOperationType.Read => etag,
                _ => "written in this batch " + i.ToString(System.Globalization.CultureInfo.InvariantCulture),
            };
        }

        return null;
    }

    /// <summary>Puts the items written before a failure back as they were read.</summary>
    private async Task RollBackAsync(ContainerPath container, string partitionKeyJson, IEnumerable<string> written, Dictionary<string, UpstreamResult> before)
    {
        var restore = written.Distinct(StringComparer.Ordinal)
            .Select(id => before[id].IsSuccess
                ? new UpstreamOperation("Upsert", partitionKeyJson, id, before[id].Body)
                : new UpstreamOperation("Delete", partitionKeyJson, id))
            .ToList();
        if (restore.Count > 0)
        {
            await upstream.ExecuteAsync(container, restore, continueOnError: true, CancellationToken.None).ConfigureAwait(false);
        }
    }

    /// <summary>
    /// A failed atomic batch: the failing operation's own status, 424 for every other one, and nothing applied.
    /// The budget was spent when the batch was let in, so the failing operation carries the batch's whole charge.
    /// </summary>
    private static BatchAnswer Failed(int count, int failing, BatchOperationResult failure, double charge)
    {
        var results = new BatchOperationResult[count];
        for (var i = 0; i < count; i++)
        {
            results[i] = i == failing ? failure with { RequestCharge = charge } : ServiceAnswers.FailedDependency();
        }

        return new BatchAnswer(207, results);
    }
}
