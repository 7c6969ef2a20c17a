namespace Loader.ThrottlingSimulator;

/// <summary>
/// A budget of request units refilled continuously at <see cref="RatePerSecond"/> up to <see cref="Capacity"/>.
/// A request dearer than the whole bucket is let through once the bucket is full and leaves it in debt, as
/// Cosmos DB lets one expensive request run and throttles the ones after it; without that it could never pass.
/// Not thread-safe: <see cref="RequestBudget"/> serialises the buckets it owns, since a batch must fit two at once.
/// </summary>
public sealed class TokenBucket
{
    // Floating-point noise from the refill must not turn "exactly enough" into a 429 asking for 1 ms more.
    private const double Tolerance = 1e-9;

    private readonly TimeProvider _timeProvider;
    private double _tokens;
    private long _refilledAt;

    public TokenBucket(double ratePerSecond, double capacity, TimeProvider timeProvider)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(ratePerSecond);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(capacity);
        ArgumentNullException.ThrowIfNull(timeProvider);
        RatePerSecond = ratePerSecond;
        Capacity = capacity;
        _timeProvider = timeProvider;
        _tokens = capacity;
        _refilledAt = timeProvider.GetTimestamp();
    }

    public double RatePerSecond { get; }

    public double Capacity { get; }

    /// <summary>Request units available now; negative while a request larger than the bucket is paid off.</summary>
    public double Available
    {
        get
        {
            Refill();
            return _tokens;
        }
    }

    /// <summary>Milliseconds until the bucket holds <paramref name="cost"/> (or is full, for a cost above its capacity); 0 when it does now.</summary>
    public double MillisecondsUntilAvailable(double cost)
    {
        Refill();
        var deficit = Math.Min(cost, Capacity) - _tokens;
        return deficit <= Tolerance ? 0 : deficit / RatePerSecond * 1000;
    }

    /// <summary>Spends <paramref name="cost"/>; callers check <see cref="MillisecondsUntilAvailable"/> first.</summary>
    public void Take(double cost)
    {
        Refill();
        _tokens -= cost;
    }

    /// <summary>Fills the bucket, as after a long quiet spell.</summary>
    public void Fill()
    {
        _refilledAt = _timeProvider.GetTimestamp();
        _tokens = Capacity;
    }

    private void Refill()
    {
        var now = _timeProvider.GetTimestamp();
        // Raw timestamps rather than a TimeSpan: TimeSpan's 100 ns ticks would drop a little budget on every refill.
        var seconds = (double)(now - _refilledAt) / _timeProvider.TimestampFrequency;
        _refilledAt = now;
        _tokens = Math.Min(Capacity, _tokens + (seconds * RatePerSecond));
    }
}
