using Loader.Abstractions;

namespace Loader.Worker.Dispatch.Concurrency;

/// <summary>
/// Batches in flight found by additive increase, multiplicative decrease (AIMD): one more slot after a full
/// round of healthy answers (as many as the limit), 30% fewer when the service pushes back across partitions
/// (see <see cref="ThrottleSignal"/>; a hot partition alone waits on its own), at most once per round so the 429s of requests already in flight do
/// not collapse it. It settles in a narrow band under the service's capacity instead of swinging between
/// the extremes. Written here because no library on the team's mirror adapts concurrency (Polly and
/// System.Threading.RateLimiting hold fixed limits).
/// </summary>
public sealed class AdaptiveConcurrencyLimiter : IConcurrencyLimiter
{
    private const double DecreaseFactor = 0.7;

    private readonly Lock _lock = new();
    private readonly Queue<TaskCompletionSource<IDisposable>> _waiters = new();
    private readonly int _min;
    private readonly int _max;
    private readonly ConcurrencyTimeline _timeline;
    private int _limit;
    private int _inFlight;
    private int _healthy;
    private int _answersSinceDecrease;

    public AdaptiveConcurrencyLimiter(int initial, int min, int max, ConcurrencyTimeline timeline)
    {
        _min = Math.Max(1, min);
        _max = Math.Max(_min, max);
        _limit = Math.Clamp(initial, _min, _max);
        _timeline = timeline;
        _answersSinceDecrease = _limit;
        timeline.Record(_limit);
    }

    public int Limit
    {
        get
        {
            lock (_lock)
            {
                return _limit;
            }
        }
    }

    public ValueTask<IDisposable> AcquireAsync(CancellationToken cancellationToken)
    {
        TaskCompletionSource<IDisposable> waiter;
        lock (_lock)
        {
            if (_inFlight < _limit && _waiters.Count == 0)
            {
                _inFlight++;
                return ValueTask.FromResult<IDisposable>(new Lease(this));
            }

            waiter = new TaskCompletionSource<IDisposable>(TaskCreationOptions.RunContinuationsAsynchronously);
            _waiters.Enqueue(waiter);
        }

        return cancellationToken.CanBeCanceled ? WaitAsync(waiter, cancellationToken) : new ValueTask<IDisposable>(waiter.Task);
    }

    /// <summary>
    /// Cancels the waiter itself (so a slot handed to it later is refused, not lost) and unregisters once it has its
    /// slot: the token lives as long as the load, and a registration left on it per wait would grow without end.
    /// </summary>
    private static async ValueTask<IDisposable> WaitAsync(TaskCompletionSource<IDisposable> waiter, CancellationToken cancellationToken)
    {
        using var registration = cancellationToken.Register(static state =>
        {
            var (waiting, token) = ((TaskCompletionSource<IDisposable>, CancellationToken))state!;
            waiting.TrySetCanceled(token);
        }, (waiter, cancellationToken));
        return await waiter.Task.ConfigureAwait(false);
    }

    public void Observe(BatchOutcome outcome, bool serviceWidePushback)
    {
        var pushback = outcome.Status == BatchStatus.Throttled;
        if (pushback && !serviceWidePushback)
        {
            return; // a hot partition waits on its own
        }

        lock (_lock)
        {
            _answersSinceDecrease++;
            if (pushback)
            {
                _healthy = 0;
                if (_answersSinceDecrease >= _limit)
                {
                    _limit = Math.Max(_min, (int)(_limit * DecreaseFactor));
                    _answersSinceDecrease = 0;
                    _timeline.Record(_limit);
                }

                return;
            }

            if (outcome.Status is BatchStatus.Written or BatchStatus.OperationsRejected && ++_healthy >= _limit && _limit < _max)
            {
                _limit++;
                _healthy = 0;
                _timeline.Record(_limit);
                ReleaseWaiters();
            }
        }
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
        while (_inFlight < _limit && _waiters.TryDequeue(out var waiter))
        {
            if (waiter.TrySetResult(new Lease(this)))
            {
                _inFlight++;
            }
        }
    }

    private sealed class Lease(AdaptiveConcurrencyLimiter owner) : IDisposable
    {
        private int _released;

        public void Dispose()
        {
            if (Interlocked.Exchange(ref _released, 1) == 0)
            {
                owner.Release();
            }
        }
    }
}
