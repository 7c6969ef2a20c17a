using Azure;
using Azure.Identity;
using Polly;
using Polly.Retry;

namespace Loader.Worker.Outputs;

/// <summary>
/// Retries a write of an output (checkpoint, rejects, report) that failed the way storage fails for a moment: a blob
/// service busy or unreachable, a file briefly locked. Three more tries, 0.5 s apart and doubling, jittered.
/// </summary>
internal static class OutputWriteRetry
{
    /// <summary>
    /// The failures of an output's write that a later try may not meet. The storage SDK, when its own retries all end
    /// without an answer, throws them together as one <see cref="AggregateException"/>.
    /// </summary>
    public static bool IsOutputFailure(Exception exception) =>
        exception is IOException or UnauthorizedAccessException or RequestFailedException or AuthenticationFailedException
        || (exception is AggregateException all && all.InnerExceptions.Count > 0 && all.InnerExceptions.All(IsOutputFailure));

    public static ResiliencePipeline Create(TimeProvider timeProvider) =>
        new ResiliencePipelineBuilder { TimeProvider = timeProvider }
            .AddRetry(new RetryStrategyOptions
            {
                ShouldHandle = new PredicateBuilder().Handle<Exception>(IsOutputFailure),
                MaxRetryAttempts = 3,
                BackoffType = DelayBackoffType.Exponential,
                Delay = TimeSpan.FromMilliseconds(500),
                UseJitter = true,
            })
            .Build();
}
