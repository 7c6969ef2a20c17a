using Loader.CosmosStandIn.Wire;
using Loader.ThrottlingSimulator;

namespace Loader.CosmosStandIn.Batches;

/// <summary>
/// Which operations of a bulk request the budget lets in. It is spent operation by operation in order; once it
/// runs dry, the rest of the request is answered 429 with the wait until the budget would hold all of that rest.
/// When not one operation fits, the whole request is throttled, as the service answers it.
/// </summary>
/// <param name="Admitted">The operations let in, by index, in order.</param>
/// <param name="Results">The answers already decided: refusals from planning and the 429s; null for the admitted.</param>
/// <param name="WholeRetryAfterMs">Set when nothing was let in: the whole request is 429 with this wait.</param>
/// <param name="ByThroughputBucket">The 429s are the throughput bucket's (sub-status 3212), not the budget's (3200).</param>
public sealed record BulkAdmission(IReadOnlyList<int> Admitted, BatchOperationResult?[] Results, int? WholeRetryAfterMs, bool ByThroughputBucket)
{
    public static BulkAdmission Admit(IReadOnlyList<PlannedOperation> operations, RequestBudget budget, string? throughputBucket)
    {
        ArgumentNullException.ThrowIfNull(operations);
        ArgumentNullException.ThrowIfNull(budget);
        var results = new BatchOperationResult?[operations.Count];
        var admitted = new List<int>();
        var throttled = new List<int>();
        var byBucket = false;
        for (var i = 0; i < operations.Count; i++)
        {
            var operation = operations[i];
            if (operation.Refusal is { } refusal)
            {
                results[i] = refusal;
                continue;
            }

            if (throttled.Count == 0)
            {
                var decision = budget.TryCharge(operation.Cost, operation.PartitionKey, throughputBucket);
                if (decision.Admitted)
                {
                    admitted.Add(i);
                    continue;
                }

                byBucket = decision.ByThroughputBucket;
            }

            throttled.Add(i);
        }

        if (throttled.Count == 0)
        {
            return new BulkAdmission(admitted, results, null, false);
        }

        // The wait is for all that was refused, not just its first operation: a client that waits this long
        // and sends the rest again finds the budget for it, as it would after a whole request's 429.
        var waitMs = Math.Max(1, budget.MillisecondsUntilAvailable(throttled.Sum(i => operations[i].Cost), operations[throttled[0]].PartitionKey, throughputBucket));
        if (admitted.Count == 0)
        {
            return new BulkAdmission(admitted, results, waitMs, byBucket);
        }

        foreach (var i in throttled)
        {
            results[i] = ServiceAnswers.Throttled(waitMs, byBucket);
        }

        return new BulkAdmission(admitted, results, null, byBucket);
    }
}
