using Loader.Abstractions;

namespace Loader.Worker.Dispatch.Concurrency;

/// <summary>A fixed number of batches in flight.</summary>
public sealed class FixedConcurrencyLimiter(int limit) : IConcurrencyLimiter, IDisposable
{
    private readonly SemaphoreSlim _slots = new(limit, limit);

    public int Limit => limit;

    public async ValueTask<IDisposable> AcquireAsync(CancellationToken cancellationToken)
    {
        await _slots.WaitAsync(cancellationToken).ConfigureAwait(false);
        return new Lease(_slots);
    }

    public void Observe(BatchOutcome outcome, bool serviceWidePushback)
    {
    }

    public void Dispose() => _slots.Dispose();

    private sealed class Lease(SemaphoreSlim slots) : IDisposable
    {
        private int _released;

        public void Dispose()
        {
            if (Interlocked.Exchange(ref _released, 1) == 0)
            {
                slots.Release();
            }
        }
    }
}
