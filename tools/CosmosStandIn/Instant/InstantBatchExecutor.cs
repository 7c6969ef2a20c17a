using System.Globalization;
using Loader.CosmosStandIn.Batches;
using Loader.CosmosStandIn.Partitioning;
using Loader.CosmosStandIn.Upstream;
using Loader.CosmosStandIn.Wire;

namespace Loader.CosmosStandIn.Instant;

/// <summary>
/// The instant mode's operations: nothing is stored and nothing is asked of anyone, so each operation that passed
/// the checks succeeds at once as if the item were as it expects — a create or upsert makes it (201), a replace or
/// patch finds it (200), a delete removes it (204) — with an ETag, its charge, and the item echoed when the client
/// wants it back (a patch has no item to echo). A read finds nothing (404), as nothing is kept. Keeping a million
/// items in this process would only weigh on the client it is there to measure.
/// </summary>
public sealed class InstantBatchExecutor : IBatchExecutor
{
    private long _etags;

    public Task<BatchAnswer> ExecuteTransactionAsync(ContainerPath container, PartitionKeyValue key, IReadOnlyList<PlannedOperation> operations, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(operations);
        var total = operations.Sum(operation => operation.Cost);
        var results = new BatchOperationResult[operations.Count];
        for (var i = 0; i < operations.Count; i++)
        {
            results[i] = Answer(operations[i]);
            if (!results[i].IsSuccess)
            {
                return Task.FromResult(BatchAnswer.FailedTransaction(operations.Count, i, results[i], total));
            }
        }

        return Task.FromResult(BatchAnswer.Of(results) with { Ttls = operations.Select(Ttl).ToList() });
    }

    public Task<BatchAnswer> ExecuteBulkAsync(ContainerPath container, IReadOnlyList<PlannedOperation> operations, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(operations);
        var results = operations.Select(Answer).ToList();
        return Task.FromResult(BatchAnswer.Of(results) with { Ttls = operations.Select((operation, i) => results[i].IsSuccess ? Ttl(operation) : null).ToList() });
    }

    public Task<UpstreamResult> ReadAsync(ContainerPath container, PartitionKeyValue key, string id, CancellationToken cancellationToken) =>
        Task.FromResult(new UpstreamResult(404, null, default));

    private BatchOperationResult Answer(PlannedOperation operation)
    {
        if (operation.Refusal is { } refusal)
        {
            return refusal with { RequestCharge = operation.Cost };
        }

        var type = operation.Operation.Type;
        if (type == BatchOperationType.Read)
        {
            return ServiceAnswers.NotFound() with { RequestCharge = operation.Cost };
        }

        var status = type switch
        {
            BatchOperationType.Create or BatchOperationType.Upsert => 201,
            BatchOperationType.Delete => 204,
            _ => 200,
        };
        var echo = !operation.Operation.MinimalReturn && type is BatchOperationType.Create or BatchOperationType.Upsert or BatchOperationType.Replace;
        return new BatchOperationResult(status, ETag: NextETag(), Body: echo ? operation.Operation.Body : default, RequestCharge: operation.Cost);
    }

    /// <summary>The <c>ttl</c> an operation gives its item: its body's, or a patch's that sets one.</summary>
    private static string? Ttl(PlannedOperation operation) =>
        operation.Patch is { } patch
            ? patch.Operations.LastOrDefault(o => o.Op is "set" or "add" or "replace" && o.Segments is ["ttl"])?.Value?.ToJsonString()
            : operation.Ttl;

    private string NextETag() =>
        string.Create(CultureInfo.InvariantCulture, $"\"{Interlocked.Increment(ref _etags):x8}-0000-0000-0000-000000000000\"");
}
