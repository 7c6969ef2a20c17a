namespace Loader.Worker.Configuration;

/// <summary>How a batch is retried when the service pushes back or fails transiently (<c>Loader:Retry</c>).</summary>
internal sealed class RetryOptions
{
    /// <summary>Retries per batch after the first attempt; its rows are reported failed once they are spent.</summary>
    public int MaxAttempts { get; set; } = 10;

    /// <summary>First backoff when the service does not say how long to wait; doubles with jitter.</summary>
    public TimeSpan BaseDelay { get; set; } = TimeSpan.FromMilliseconds(200);

    /// <summary>Longest single wait, whether backoff or the service's retry-after.</summary>
    public TimeSpan MaxDelay { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>Time limit of one attempt.</summary>
    public TimeSpan AttemptTimeout { get; set; } = TimeSpan.FromSeconds(60);
}
