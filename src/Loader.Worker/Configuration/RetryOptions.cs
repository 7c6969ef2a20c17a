using System.ComponentModel.DataAnnotations;
using Loader.Abstractions;

namespace Loader.Worker.Configuration;

/// <summary>How a batch is retried when the service pushes back or fails transiently (<c>Loader:Retry</c>).</summary>
internal sealed class RetryOptions
{
    /// <summary>Retries per batch after the first attempt; its rows are reported failed once they are spent.</summary>
    // 0: no retries (no retry strategy at all: Polly's RetryStrategyOptions.MaxRetryAttempts takes 1 or more); the
    // loader's own ceiling, since each attempt may wait up to MaxDelay.
    [Range(0, 1000)]
    public int MaxAttempts { get; set; } = 10;

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
