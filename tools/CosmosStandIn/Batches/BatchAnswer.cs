using Loader.CosmosStandIn.Wire;

namespace Loader.CosmosStandIn.Batches;

/// <summary>
/// What a batch request comes to: the HTTP status of the whole and one result per operation, in order; or,
/// when the budget could not afford any of it, a refusal of the whole request after <see cref="RetryAfterMs"/>.
/// </summary>
public sealed record BatchAnswer(int StatusCode, IReadOnlyList<BatchOperationResult> Results, int? RetryAfterMs = null)
{
    public bool IsThrottledWhole => RetryAfterMs is not null;

    /// <summary>The request's charge: what its operations cost.</summary>
    public double RequestCharge => Results.Sum(result => result.RequestCharge);

    /// <summary>200 when every operation succeeded, else 207 Multi-Status, as the service answers batches.</summary>
    public static BatchAnswer Of(IReadOnlyList<BatchOperationResult> results) =>
        new(results.All(result => result.IsSuccess) ? 200 : 207, results);

    /// <summary>The whole request refused for want of budget: nothing ran, nothing is charged.</summary>
    public static BatchAnswer Throttled(int retryAfterMs) => new(429, [], retryAfterMs);
}
