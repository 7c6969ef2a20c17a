using Loader.CosmosStandIn.Wire;

namespace Loader.CosmosStandIn.Batches;

/// <summary>
/// What a batch request comes to: the HTTP status of the whole and one result per operation, in order; or,
/// when the budget could not afford any of it, a refusal of the whole request after <see cref="RetryAfterMs"/>.
/// </summary>
/// <param name="StatusCode">200, 207 Multi-Status, or 429 for a refusal of the whole.</param>
/// <param name="Results">One result per operation, in request order (none when refused whole).</param>
/// <param name="RetryAfterMs">For a refusal of the whole: the wait before the budget would let it in.</param>
/// <param name="ByThroughputBucket">The refusal was the request's throughput bucket's (sub-status 3212), not the budget's (3200).</param>
public sealed record BatchAnswer(int StatusCode, IReadOnlyList<BatchOperationResult> Results, int? RetryAfterMs = null, bool ByThroughputBucket = false)
{
    public bool IsThrottledWhole => RetryAfterMs is not null;

    /// <summary>The request's charge: what its operations cost.</summary>
    public double RequestCharge => Results.Sum(result => result.RequestCharge);

    /// <summary>The <c>ttl</c> of the item each operation wrote (JSON text), parallel to <see cref="Results"/>; null entries for none.</summary>
    public IReadOnlyList<string?> Ttls { get; init; } = [];

    /// <summary>200 when every operation succeeded, else 207 Multi-Status, as the service answers batches.</summary>
    public static BatchAnswer Of(IReadOnlyList<BatchOperationResult> results) =>
        new(results.All(result => result.IsSuccess) ? 200 : 207, results);

    /// <summary>The whole request refused for want of budget: nothing ran, nothing is charged.</summary>
    public static BatchAnswer Throttled(int retryAfterMs, bool byThroughputBucket = false) => new(429, [], retryAfterMs, byThroughputBucket);

    /// <summary>
    /// A failed atomic batch: the failing operation's own status, 424 for every other one, and nothing applied.
    /// The budget was spent when the batch was let in, so the failing operation carries the batch's whole charge.
    /// </summary>
    public static BatchAnswer FailedTransaction(int count, int failing, BatchOperationResult failure, double charge)
    {
        ArgumentNullException.ThrowIfNull(failure);
        var results = new BatchOperationResult[count];
        for (var i = 0; i < count; i++)
        {
            results[i] = i == failing ? failure with { RequestCharge = charge } : ServiceAnswers.FailedDependency();
        }

        return new BatchAnswer(207, results);
    }
}
