namespace Loader.Worker.Dispatch.Concurrency;

/// <summary>
/// Slots for requests in flight, as many as are open, and the callers waiting for one, served in the order they came.
/// A slot given back, or a slot opened, goes to the caller that waited longest; a caller whose wait is cancelled gives up
/// its place, and a slot handed to it meanwhile stays free. Fewer slots open take none back: requests in flight end as
/// they would. Thread-safe.
/// </summary>
internal sealed class SlotGate(int open)
{
    private readonly Lock _lock = new();
    private readonly Queue<TaskCompletionSource<ConcurrencyLease>> _waiters = new();
    private int _open = open;
    private int _inFlight;

    /// <summary>Waits for a slot; dispose the lease to give it back.</summary>
    public ValueTask<ConcurrencyLease> AcquireAsync(CancellationToken cancellationToken)
    {
        TaskCompletionSource<ConcurrencyLease> waiter;
        lock (_lock)
        {
            if (_inFlight < _open && _waiters.Count == 0)
            {
                return ValueTask.FromResult(Grant());
            }

            waiter = new TaskCompletionSource<ConcurrencyLease>(TaskCreationOptions.RunContinuationsAsynchronously);
            _waiters.Enqueue(waiter);
        }

        return cancellationToken.CanBeCanceled ? WaitAsync(waiter, cancellationToken) : new ValueTask<ConcurrencyLease>(waiter.Task);
    }

    /// <summary>Opens <paramref name="slots"/> slots in all; waiting callers take those free.</summary>
    public void Open(int slots)
    {
        lock (_lock)
        {
            _open = slots;
            ReleaseWaiters();
        }
    }

    /// <summary>
    /// Cancels the waiter itself (so a slot handed to it later is refused, not lost) and unregisters once it has its
    /// slot: the token lives as long as the load, and a registration left on it per wait would grow without end.
    /// </summary>
    private static async ValueTask<ConcurrencyLease> WaitAsync(TaskCompletionSource<ConcurrencyLease> waiter, CancellationToken cancellationToken)
    {
        using var registration = cancellationToken.Register(static state =>
        {
            var (waiting, token) = ((TaskCompletionSource<ConcurrencyLease>, CancellationToken))state!;
            waiting.TrySetCanceled(token);
        }, (waiter, cancellationToken));
        return await waiter.Task.ConfigureAwait(false);
    }

    private ConcurrencyLease Grant()
    {
        _inFlight++;
        return new ConcurrencyLease(_inFlight, Release);
    }

    private void Release()
    {
        lock (_lock)
        {
            _inFlight--;
            ReleaseWaiters();
        }
    }

    private void ReleaseWaiters()
    {
        while (_inFlight < _open && _waiters.TryDequeue(out var waiter))
        {
            var lease = Grant();
            if (!waiter.TrySetResult(lease))
            {
                _inFlight--; // the waiter was cancelled meanwhile: the slot stays free
            }
        }
    }
}
