using Loader.Abstractions;

namespace Loader.Worker.Dispatch.Concurrency;

/// <summary>Bounds the batches in flight; adaptive implementations learn the bound from what the service answers.</summary>
public interface IConcurrencyLimiter
{
    /// <summary>The number of batches allowed in flight now.</summary>
    int Limit { get; }

    /// <summary>Waits for a slot; dispose the lease to give it back.</summary>
    ValueTask<IDisposable> AcquireAsync(CancellationToken cancellationToken);

    /// <summary>Tells the limiter how an attempt ended, so it can grow or shrink.</summary>
    /// <param name="outcome">The attempt's outcome.</param>
    /// <param name="serviceWidePushback">Whether a throttled answer shows service-wide pressure rather than one hot partition (<see cref="ThrottleSignal"/>).</param>
    void Observe(BatchOutcome outcome, bool serviceWidePushback);
}
