using Loader.Abstractions;
using Loader.Worker.Configuration;
using Loader.Worker.Reporting;
using Polly;
using Polly.Retry;
using Polly.Timeout;

namespace Loader.Worker.Dispatch.Resilience;

/// <summary>
/// The Polly pipeline around one batch attempt: a timeout per attempt inside a retry that repeats throttled
/// and transient outcomes, waiting what the service asked (retry-after) or, when it said nothing,
/// exponentially longer with jitter. Waits happen outside the concurrency slot, so a throttled partition
/// waits on its own while others flow.
/// </summary>
public static class BatchResilience
{
    public static ResiliencePipeline<BatchOutcome> Create(RetryOptions options, LoadStatistics statistics, TimeProvider timeProvider)
    {
        return new ResiliencePipelineBuilder<BatchOutcome> { TimeProvider = timeProvider }
            .AddRetry(new RetryStrategyOptions<BatchOutcome>
            {
                ShouldHandle = new PredicateBuilder<BatchOutcome>()
                    .HandleResult(outcome => outcome.Status is BatchStatus.Throttled or BatchStatus.Transient)
                    .Handle<TimeoutRejectedException>(),
                MaxRetryAttempts = options.MaxAttempts,
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
            })
            .AddTimeout(options.AttemptTimeout)
            .Build();
    }

    /// <summary>The service's retry-after, capped; null lets the retry strategy back off exponentially.</summary>
    private static TimeSpan? ServerDelay(Outcome<BatchOutcome> outcome, TimeSpan maxDelay) =>
        outcome.Result?.RetryAfter is { } retryAfter ? (retryAfter > maxDelay ? maxDelay : retryAfter) : null;
}
