using Loader.Abstractions;
using Loader.Worker.Configuration;
using Loader.Worker.Reporting;
using Polly;
using Polly.Retry;

namespace Loader.Worker.Dispatch.Resilience;

/// <summary>
/// The Polly pipelines around batch attempts. <see cref="Retry"/> repeats throttled and transient outcomes, waiting
/// what the service asked (retry-after) or, when it said nothing, exponentially longer with jitter, up to
/// <c>Loader:Retry:MaxAttempts</c> (a throttled batch: and for at least <c>Loader:Retry:MaxThrottledWait</c>); the waits happen outside the concurrency slot, so a throttled partition waits on
/// its own while others flow. <see cref="RequestTimeout"/> bounds the request alone, not the pacing before it.
/// </summary>
internal sealed class BatchResilience
{
    // When this execution's batch was first throttled: what MaxThrottledWait counts from.
    private static readonly ResiliencePropertyKey<long> s_firstThrottled = new("Loader.FirstThrottled");

    /// <param name="options">Loader:Retry.</param>
    /// <param name="statistics">Where retries and their waits are counted.</param>
    /// <param name="timeProvider">Clock of the waits.</param>
    /// <param name="randomizer">The jitter's random source (values in [0, 1)); Polly's own when null. Tests seed it.</param>
    public BatchResilience(RetryOptions options, LoadStatistics statistics, TimeProvider timeProvider, Func<double>? randomizer = null)
    {
        var retry = new RetryStrategyOptions<BatchOutcome>
        {
            ShouldHandle = args => ValueTask.FromResult(ShouldRetry(args.Outcome.Result, args.AttemptNumber, args.Context, options, timeProvider)),
            // ShouldRetry counts the attempts: a throttled batch may outlast them.
            MaxRetryAttempts = int.MaxValue,
            BackoffType = DelayBackoffType.Exponential,
            UseJitter = true,
            Delay = options.BaseDelay,
            MaxDelay = options.MaxDelay,
            DelayGenerator = args => ValueTask.FromResult(ServerDelay(args.Outcome, options.MaxDelay)),
            OnRetry = args =>
            {
                statistics.Retry(args.RetryDelay);
                return default;
            },
        };
        if (randomizer is not null)
        {
            retry.Randomizer = randomizer;
        }

        // No retries at all is no strategy: Polly's retry strategy takes one or more.
        Retry = options.MaxAttempts == 0 && options.MaxThrottledWait == TimeSpan.Zero
            ? ResiliencePipeline<BatchOutcome>.Empty
            : new ResiliencePipelineBuilder<BatchOutcome> { TimeProvider = timeProvider }.AddRetry(retry).Build();
        RequestTimeout = new ResiliencePipelineBuilder { TimeProvider = timeProvider }.AddTimeout(options.AttemptTimeout).Build();
    }

    public ResiliencePipeline<BatchOutcome> Retry { get; }

    public ResiliencePipeline RequestTimeout { get; }

    /// <summary>
    /// Throttled and transient outcomes are retried while attempts are left; a throttled one also until
    /// <c>MaxThrottledWait</c> has passed since the batch's first throttled answer.
    /// </summary>
    private static bool ShouldRetry(BatchOutcome? outcome, int attempt, ResilienceContext context, RetryOptions options, TimeProvider timeProvider)
    {
        if (outcome?.Status is not (BatchStatus.Throttled or BatchStatus.Transient))
        {
            return false;
        }

        var now = timeProvider.GetTimestamp();
        if (outcome.Status == BatchStatus.Throttled && !context.Properties.TryGetValue(s_firstThrottled, out _))
        {
            context.Properties.Set(s_firstThrottled, now);
        }

        return attempt < options.MaxAttempts
            || (outcome.Status == BatchStatus.Throttled && timeProvider.GetElapsedTime(context.Properties.GetValue(s_firstThrottled, now), now) < options.MaxThrottledWait);
    }

    /// <summary>The service's retry-after, capped; null lets the retry strategy back off exponentially.</summary>
    private static TimeSpan? ServerDelay(Outcome<BatchOutcome> outcome, TimeSpan maxDelay) =>
        outcome.Result?.RetryAfter is { } retryAfter && retryAfter > TimeSpan.Zero ? (retryAfter > maxDelay ? maxDelay : retryAfter) : null;
}
