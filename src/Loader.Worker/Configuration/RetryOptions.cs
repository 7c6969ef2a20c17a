using System.ComponentModel.DataAnnotations;
using Loader.Abstractions;

namespace Loader.Worker.Configuration;

/// <summary>How a batch is retried when the service pushes back or fails transiently (<c>Loader:Retry</c>).</summary>
internal sealed class RetryOptions
{
    /// <summary>Retries per batch after the first attempt; its rows are reported failed once they are spent (a throttled batch: and <c>MaxThrottledWait</c> has passed).</summary>
    // 0: no retries (no retry strategy at all: Polly's RetryStrategyOptions.MaxRetryAttempts takes 1 or more); the
    // loader's own ceiling, since each attempt may wait up to MaxDelay.
    [Range(0, 1000)]
    public int MaxAttempts { get; set; } = 10;

    /// <summary>
    /// How long a batch the service keeps throttling (429, 503 Server Busy) is retried from its first throttled answer,
    /// even once its attempts are spent; 00:00:00: the attempts alone decide.
    /// </summary>
    // While the loader learns a budget it was not told of, a batch can be refused ten times in a few seconds by requests
    // that took the budget first; a load that is still progressing should slow down, not fail rows.
    [Range(typeof(TimeSpan), "00:00:00", "1.00:00:00")]
    public TimeSpan MaxThrottledWait { get; set; } = TimeSpan.FromMinutes(1);

    /// <summary>First backoff when the service does not say how long to wait; doubles with jitter.</summary>
    // Polly's RetryStrategyOptions.Delay takes 0 to 1 day; zero would retry at once, which throttling only worsens.
    [Range(typeof(TimeSpan), SettingLimits.OneMillisecond, "1.00:00:00")]
    public TimeSpan BaseDelay { get; set; } = TimeSpan.FromMilliseconds(200);

    /// <summary>Longest single wait, whether backoff or the service's retry-after.</summary>
    // Polly's RetryStrategyOptions.MaxDelay takes 0 to 1 day.
    [Range(typeof(TimeSpan), SettingLimits.OneMillisecond, "1.00:00:00")]
    public TimeSpan MaxDelay { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>Time limit of one attempt.</summary>
    // Polly's TimeoutStrategyOptions.Timeout takes 10 ms to 1 day.
    [Range(typeof(TimeSpan), "00:00:00.010", "1.00:00:00")]
    public TimeSpan AttemptTimeout { get; set; } = TimeSpan.FromSeconds(60);
}
