namespace Loader.Worker.Dispatch.Concurrency;

/// <summary>Bounds the batches in flight; adaptive implementations learn the bound from what the service answers.</summary>
internal interface IConcurrencyLimiter
{
    /// <summary>The number of batches allowed in flight now.</summary>
    int Limit { get; }

    /// <summary>Waits for a slot; dispose the lease to give it back.</summary>
    ValueTask<ConcurrencyLease> AcquireAsync(CancellationToken cancellationToken);

    /// <summary>Tells the limiter how an attempt ended, so it can grow or shrink.</summary>
    void Observe(in AttemptObservation attempt);
}
