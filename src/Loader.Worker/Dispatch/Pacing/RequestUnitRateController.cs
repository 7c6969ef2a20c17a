namespace Loader.Worker.Dispatch.Pacing;

/// <summary>
/// Learns the request-unit rate a service allows from its 429s. Until the first service-wide throttle the rate is
/// unlimited (or the configured cap). A throttle marks a ceiling: the rate the service accepted since the last
/// change — while the loader sent more than that, so it is the budget — and the pace drops to 95% of it. From
/// there it climbs back fast (2% a second) to the ceiling and then probes above it, slowly at first and faster
/// the longer the service keeps accepting, in case the ceiling was measured low or the budget grew (autoscale).
/// A probe that finds the limit costs a throttled request or two; the pace stays within a few percent under the
/// budget. Thread-safe; time from a <see cref="TimeProvider"/>.
/// </summary>
public sealed class RequestUnitRateController(TimeProvider timeProvider, double? cap)
{
    private const double BackOffFraction = 0.97;
    private const double MaxDecreaseFraction = 0.85;
    private const double RecoveryPerSecond = 0.02;
    private const double ProbePerSecond = 0.0025;
    private const double ProbeAccelerationPerSecond = 0.001;

    // Rates are measured over at least this long, so the burst a service allows at the start is not taken for its rate.
    private static readonly TimeSpan s_shortestMeasurement = TimeSpan.FromSeconds(1);
    private static readonly TimeSpan s_coolDown = TimeSpan.FromSeconds(2);

    private readonly Lock _lock = new();
    private double? _ceiling;
    private double _floorRate;
    private long _changed;
    private double _deliveredSinceChange;

    /// <summary>The rate to pace at now, within the cap; infinity when nothing limits it.</summary>
    public double Rate
    {
        get
        {
            lock (_lock)
            {
                return Math.Min(CurrentLearnedRate(timeProvider.GetTimestamp()), cap ?? double.PositiveInfinity);
            }
        }
    }

    /// <summary>The rate the service last showed it accepts, if it has throttled.</summary>
    public double? Ceiling
    {
        get
        {
            lock (_lock)
            {
                return _ceiling;
            }
        }
    }

    /// <summary>Records the charge of an answer the service accepted.</summary>
    public void Delivered(double requestCharge)
    {
        lock (_lock)
        {
            if (_deliveredSinceChange == 0 && _ceiling is null)
            {
                _changed = timeProvider.GetTimestamp(); // measure from the first answer, not from start-up
            }

            _deliveredSinceChange += requestCharge;
        }
    }

    /// <summary>A service-wide 429: what got through since the last change is the ceiling; pace under it.</summary>
    public void Throttled()
    {
        lock (_lock)
        {
            var now = timeProvider.GetTimestamp();
            var since = timeProvider.GetElapsedTime(_changed, now);
            if ((_ceiling is not null && since < s_coolDown) || _deliveredSinceChange <= 0)
            {
                return; // 429s of requests sent before the last change say nothing new; or nothing accepted yet
            }

            // What got through is the budget when the pace was above it. It reads low when retries of an earlier
            // episode took part of the pace, so one episode lowers the ceiling by at most 15%.
            var accepted = _deliveredSinceChange / Math.Max(since.TotalSeconds, s_shortestMeasurement.TotalSeconds);
            var current = CurrentLearnedRate(now);
            _ceiling = double.IsPositiveInfinity(current) ? accepted : Math.Max(accepted, current * MaxDecreaseFraction);
            _floorRate = _ceiling.Value * BackOffFraction;
            _changed = now;
            _deliveredSinceChange = 0;
        }
    }

    private double CurrentLearnedRate(long now)
    {
        if (_ceiling is not { } ceiling)
        {
            return double.PositiveInfinity;
        }

        var seconds = timeProvider.GetElapsedTime(_changed, now).TotalSeconds;
        var recovered = _floorRate * Math.Pow(1 + RecoveryPerSecond, seconds);
        if (recovered <= ceiling)
        {
            return recovered;
        }

        var probing = seconds - (Math.Log(ceiling / _floorRate) / Math.Log(1 + RecoveryPerSecond));
        return ceiling * (1 + (ProbePerSecond * probing) + (ProbeAccelerationPerSecond * probing * probing));
    }
}
