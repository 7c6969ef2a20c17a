using Loader.CosmosStandIn.Upstream;
using Loader.CosmosStandIn.Wire;
using Loader.ThrottlingSimulator;

namespace Loader.CosmosStandIn.Batches;

/// <summary>
/// Runs a non-atomic batch (what the SDK's bulk mode sends): each operation stands alone and gets its own
/// status. The budget is spent operation by operation in order; once it runs dry, the rest of the request is
/// answered 429 with the wait until the budget would hold all of that rest, and only the ones admitted run.
/// When not one operation fits, the whole request is throttled, as the service answers it.
/// </summary>
public sealed class BulkExecutor(CosmosDbServerClient upstream)
{
    /// <returns>The answer; the whole request is throttled when not one operation could be afforded.</returns>
    public async Task<BatchAnswer> ExecuteAsync(ContainerPath container, IReadOnlyList<PlannedOperation> operations, RequestBudget budget)
    {
        var results = new BatchOperationResult?[operations.Count];
        var admitted = new List<int>();
        var throttled = new List<int>();
        for (var i = 0; i < operations.Count; i++)
        {
            var operation = operations[i];
            if (operation.Refusal is { } refusal)
            {
                results[i] = refusal;
            }
            else if (throttled.Count == 0 && budget.TryCharge(operation.Cost, operation.PartitionKeyJson).Admitted)
            {
                admitted.Add(i);
            }
            else
            {
                throttled.Add(i);
            }
        }

        if (throttled.Count > 0)
        {
            // The wait is for all that was refused, not just its first operation: a client that waits this long
            // and sends the rest again finds the budget for it, as it would after a whole request's 429.
            var first = operations[throttled[0]];
            var waitMs = Math.Max(1, budget.MillisecondsUntilAvailable(throttled.Sum(i => operations[i].Cost), first.PartitionKeyJson));
            if (admitted.Count == 0)
            {
                return BatchAnswer.Throttled(waitMs);
            }

            foreach (var i in throttled)
            {
                results[i] = ServiceAnswers.Throttled(waitMs);
            }
        }

        if (admitted.Count > 0)
        {
            // Sent whatever the client does meanwhile, so what was applied is always counted.
            var applied = await upstream.ExecuteAsync(container, admitted.Select(i => operations[i].ToUpstream()).ToList(), continueOnError: true, CancellationToken.None).ConfigureAwait(false);
            for (var k = 0; k < admitted.Count; k++)
            {
                var operation = operations[admitted[k]];
                var result = applied[k];
                results[admitted[k]] = result.IsSuccess
                    ? TransactionalBatchExecutor.Succeeded(operation, result)
                    : ServiceAnswers.Refused(result.StatusCode, result.StatusCode switch { 409 => "Conflict", 404 => "NotFound", 412 => "PreconditionFailed", _ => "Failed" }, Message(result), charge: operation.Cost);
            }
        }

        return BatchAnswer.Of(results.Select(result => result!).ToList());
    }

    private static string Message(UpstreamResult result) => result.StatusCode switch
    {
        409 => ServiceAnswers.ConflictMessage,
        404 => ServiceAnswers.NotFoundMessage,
        412 => ServiceAnswers.PreconditionFailedMessage,
        _ => ServiceAnswers.Text(result.Body),
    };
}
