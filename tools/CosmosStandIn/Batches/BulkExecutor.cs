using Loader.CosmosStandIn.Upstream;
using Loader.CosmosStandIn.Wire;

namespace Loader.CosmosStandIn.Batches;

/// <summary>
/// Runs the admitted operations of a non-atomic batch (what the SDK's bulk mode sends) on cosmosdb-server: each
/// stands alone and gets its own status. Without patches they go as one cosmosdb-server batch that carries on past
/// failures. A patch needs the item it patches: then, under the locks of every logical partition the request
/// touches, the stored items are read, the operations played against them in order (<see cref="OperationPlayer"/>)
/// and what passed is sent, a patch as the replace of the item it patched.
/// </summary>
public sealed class BulkExecutor(CosmosDbServerClient upstream, PartitionLocks locks, OperationPlayer player)
{
    public async Task<BatchAnswer> ExecuteAsync(ContainerPath container, IReadOnlyList<PlannedOperation> operations, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(operations);
        if (operations.Any(operation => operation.Patch is not null))
        {
            return await PlayedAsync(container, operations, cancellationToken).ConfigureAwait(false);
        }

        // Sent whatever the client does meanwhile, so what was applied is always counted.
        var applied = await upstream.ExecuteAsync(container, operations.Select(operation => operation.ToUpstream()).ToList(), continueOnError: true, CancellationToken.None).ConfigureAwait(false);
        var results = new BatchOperationResult[operations.Count];
        var ttls = new string?[operations.Count];
        for (var i = 0; i < operations.Count; i++)
        {
            (results[i], ttls[i]) = Answer(operations[i], applied[i], operations[i].Cost, operations[i].Ttl);
        }

        return BatchAnswer.Of(results) with { Ttls = ttls };
    }

    private async Task<BatchAnswer> PlayedAsync(ContainerPath container, IReadOnlyList<PlannedOperation> operations, CancellationToken cancellationToken)
    {
        using var held = await locks.EnterAllAsync(container.Link, operations.Select(operation => operation.PartitionKey), cancellationToken).ConfigureAwait(false);
        var stored = await StoredItems.ReadAsync(upstream, container, operations, cancellationToken).ConfigureAwait(false);
        var played = player.Play(operations, stored, atomic: false);
        var passed = Enumerable.Range(0, operations.Count).Where(i => played[i]!.Refusal is null).ToList();
        var applied = passed.Count == 0
            ? []
            : await upstream.ExecuteAsync(container, passed.Select(i => played[i]!.Upstream!).ToList(), continueOnError: true, CancellationToken.None).ConfigureAwait(false);
        var results = new BatchOperationResult[operations.Count];
        var ttls = new string?[operations.Count];
        for (var i = 0; i < operations.Count; i++)
        {
            results[i] = played[i]!.Refusal!;
        }

        for (var k = 0; k < passed.Count; k++)
        {
            var i = passed[k];
            (results[i], ttls[i]) = Answer(operations[i], applied[k], played[i]!.Cost, played[i]!.Ttl);
        }

        return BatchAnswer.Of(results) with { Ttls = ttls };
    }

    private static (BatchOperationResult Result, string? Ttl) Answer(PlannedOperation operation, UpstreamResult result, double charge, string? ttl) =>
        result.IsSuccess
            ? (TransactionalBatchExecutor.Succeeded(operation, result, charge), operation.Writes ? ttl : null)
            : (ServiceAnswers.Refused(result.StatusCode, result.StatusCode switch { 409 => "Conflict", 404 => "NotFound", 412 => "PreconditionFailed", _ => "Failed" }, Message(result), charge: charge), null);

    private static string Message(UpstreamResult result) => result.StatusCode switch
    {
        409 => ServiceAnswers.ConflictMessage,
        404 => ServiceAnswers.NotFoundMessage,
        412 => ServiceAnswers.PreconditionFailedMessage,
        _ => ServiceAnswers.Text(result.Body),
    };
}
