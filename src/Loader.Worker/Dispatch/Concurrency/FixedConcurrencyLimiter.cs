namespace Loader.Worker.Dispatch.Concurrency;

/// <summary>A fixed number of batches in flight.</summary>
internal sealed class FixedConcurrencyLimiter(int limit) : IConcurrencyLimiter, IDisposable
{
    private readonly SemaphoreSlim _slots = new(limit, limit);

    public int Limit => limit;

    public async ValueTask<ConcurrencyLease> AcquireAsync(CancellationToken cancellationToken)
    {
        await _slots.WaitAsync(cancellationToken).ConfigureAwait(false);
        return new ConcurrencyLease(limit - _slots.CurrentCount, () => _slots.Release());
    }

    public void Observe(in AttemptObservation attempt)
    {
    }

    public void Dispose() => _slots.Dispose();
}
