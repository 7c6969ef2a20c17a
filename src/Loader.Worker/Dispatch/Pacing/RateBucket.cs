namespace Loader.Worker.Dispatch.Pacing;

/// <summary>
/// A token bucket that may go into debt: a request takes what it is expected to cost before it is sent, and
/// the difference to what it really cost (known only from the answer) is settled afterwards. Written here
/// because System.Threading.RateLimiting's token bucket cannot charge after the fact or change its rate
/// while running, which pacing by measured request units needs. Thread-safe; time from a <see cref="TimeProvider"/>.
/// </summary>
internal sealed class RateBucket
{
    private static readonly TimeSpan s_longestWait = TimeSpan.FromMinutes(1);

    private readonly Lock _lock = new();
    private readonly TimeProvider _timeProvider;
    private readonly double _burstSeconds;
    private double _ratePerSecond;
    private double _tokens;
    private long _updated;

    /// <param name="ratePerSecond">Tokens added per second; <see cref="double.PositiveInfinity"/> for no limit.</param>
    /// <param name="burstSeconds">How many seconds of tokens the bucket holds at most.</param>
    /// <param name="timeProvider">Clock of the refills and waits.</param>
    public RateBucket(double ratePerSecond, double burstSeconds, TimeProvider timeProvider)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(ratePerSecond);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(burstSeconds);
        _timeProvider = timeProvider;
        _burstSeconds = burstSeconds;
        _ratePerSecond = ratePerSecond;
        _tokens = Capacity;
        _updated = timeProvider.GetTimestamp();
    }

    public double RatePerSecond
    {
        get
        {
            lock (_lock)
            {
                return _ratePerSecond;
            }
        }
    }

    private double Capacity => double.IsPositiveInfinity(_ratePerSecond) ? double.PositiveInfinity : _ratePerSecond * _burstSeconds;

    /// <summary>Tokens available now (negative while in debt).</summary>
    public double Available
    {
        get
        {
            lock (_lock)
            {
                Refill();
                return _tokens;
            }
        }
    }

    /// <summary>Changes the rate; tokens already held above the new capacity are dropped.</summary>
    public void SetRate(double ratePerSecond)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(ratePerSecond);
        lock (_lock)
        {
            Refill();
            _ratePerSecond = ratePerSecond;
            _tokens = Math.Min(_tokens, Capacity);
        }
    }

    /// <summary>
    /// Waits until the bucket holds <paramref name="cost"/>, then takes it. A cost larger than the bucket can hold
    /// waits for a full bucket and leaves it in debt, which the takes after it wait off.
    /// </summary>
    public async ValueTask TakeAsync(double cost, CancellationToken cancellationToken)
    {
        while (true)
        {
            TimeSpan wait;
            lock (_lock)
            {
                Refill();
                var needed = Math.Min(cost, Capacity);
                if (_tokens >= needed || double.IsPositiveInfinity(_ratePerSecond))
                {
                    _tokens -= cost;
                    return;
                }

                // A wait longer than a slice is taken a slice at a time: a very low rate asks for more than a TimeSpan
                // or Task.Delay holds, and a rate raised meanwhile (SetRate) is seen at the next slice.
                wait = TimeSpan.FromSeconds(Math.Min((needed - _tokens + 1e-9) / _ratePerSecond, s_longestWait.TotalSeconds));
            }

            await Task.Delay(wait < TimeSpan.FromMilliseconds(1) ? TimeSpan.FromMilliseconds(1) : wait, _timeProvider, cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>Gives back (positive) or charges (negative) the difference between what was taken and the real cost.</summary>
    public void Settle(double difference)
    {
        lock (_lock)
        {
            Refill();
            _tokens = Math.Min(Capacity, _tokens + difference);
        }
    }

    private void Refill()
    {
        var now = _timeProvider.GetTimestamp();
        if (!double.IsPositiveInfinity(_ratePerSecond))
        {
            _tokens = Math.Min(Capacity, _tokens + (_timeProvider.GetElapsedTime(_updated, now).TotalSeconds * _ratePerSecond));
        }

        _updated = now;
    }
}
