namespace Loader.Worker.Dispatch.Pacing;

/// <summary>
/// Learns the request-unit rate a service allows from its 429s. Until the first service-wide throttle the rate is
/// unlimited (or the configured cap). A throttle marks a ceiling: the rate the service accepted over the last few
/// seconds — while the loader sent more than that, so it is the budget — and the pace drops to 96% of it. From
/// there it climbs back within two seconds to 98% of the ceiling, holds there a while, then probes above it, slowly at
/// first and faster the longer the service keeps accepting, in case the ceiling was measured low or the budget grew
/// (autoscale). A probe that finds the limit costs a throttled request or two; holding first keeps those rare.
/// A throttle within the first second of answers cannot tell a service's burst allowance from its rate: the
/// ceiling it sets is provisional and the pace climbs from it steadily until a later throttle measures the rate.
/// Thread-safe; time from a <see cref="TimeProvider"/>.
/// </summary>
internal sealed class RequestUnitRateController(TimeProvider timeProvider, double? cap)
{
    private const double BackOffFraction = 0.96;
    private const double HoldFraction = 0.98;
    private const double MaxDecreaseFraction = 0.85;
    private const double RecoveryPerSecond = 0.02;
    private const double ProvisionalClimbPerSecond = 0.05;
    private const double ProbePerSecond = 0.002;
    private const double ProbeAccelerationPerSecond = 0.0002;

    // Rates are measured over at least this long, so the burst a service allows at the start is not taken for its
    // rate, and over at most the longest: the recent past is what the service accepts now. Measuring only since the
    // last change read low at the start, while the loader itself was still ramping up.
    private static readonly TimeSpan s_shortestMeasurement = TimeSpan.FromSeconds(1);
    private static readonly TimeSpan s_longestMeasurement = TimeSpan.FromSeconds(3);
    private static readonly TimeSpan s_coolDown = TimeSpan.FromSeconds(2);
    private static readonly TimeSpan s_holdAtCeiling = TimeSpan.FromSeconds(30);

    private readonly Lock _lock = new();
    private readonly Queue<(long At, double Charge)> _recent = new();
    private double? _ceiling;
    private bool _provisional;
    private double _floorRate;
    private long? _firstAnswer;
    private long _changed;

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
            var now = timeProvider.GetTimestamp();
            _firstAnswer ??= now; // measure from the first answer, not from start-up
            _recent.Enqueue((now, requestCharge));
            ForgetBefore(now, s_longestMeasurement);
        }
    }

    /// <summary>A service-wide 429: what got through lately is the ceiling; pace under it.</summary>
    public void Throttled()
    {
        lock (_lock)
        {
            var now = timeProvider.GetTimestamp();
            if ((_ceiling is not null && timeProvider.GetElapsedTime(_changed, now) < s_coolDown) || _firstAnswer is not { } firstAnswer)
            {
                return; // 429s of requests sent before the last change say nothing new; or nothing accepted yet
            }

            var sinceFirstAnswer = timeProvider.GetElapsedTime(firstAnswer, now);
            var accepted = AcceptedRate(now, sinceFirstAnswer);
            if (accepted <= 0)
            {
                return;
            }

            // Retries of an earlier episode can crowd the window, so one episode lowers the ceiling by at most 15%.
            var current = CurrentLearnedRate(now);
            _ceiling = double.IsPositiveInfinity(current) ? accepted : Math.Max(accepted, current * MaxDecreaseFraction);
            _floorRate = _ceiling.Value * BackOffFraction;
            _provisional = sinceFirstAnswer < s_shortestMeasurement;
            _changed = now;
        }
    }

    private double AcceptedRate(long now, TimeSpan sinceFirstAnswer)
    {
        var window = sinceFirstAnswer < s_longestMeasurement ? sinceFirstAnswer : s_longestMeasurement;
        ForgetBefore(now, window);
        var charge = 0.0;
        foreach (var (_, delivered) in _recent)
        {
            charge += delivered;
        }

        return charge / Math.Max(window.TotalSeconds, s_shortestMeasurement.TotalSeconds);
    }

    private void ForgetBefore(long now, TimeSpan window)
    {
        while (_recent.TryPeek(out var oldest) && timeProvider.GetElapsedTime(oldest.At, now) > window)
        {
            _recent.Dequeue();
        }
    }

    private double CurrentLearnedRate(long now)
    {
        if (_ceiling is not { } ceiling)
        {
            return double.PositiveInfinity;
        }

        var seconds = timeProvider.GetElapsedTime(_changed, now).TotalSeconds;
        if (_provisional)
        {
            return _floorRate * Math.Pow(1 + ProvisionalClimbPerSecond, seconds);
        }

        // Held a little under the ceiling: measured over a few seconds it includes some of the burst the service
        // let through, so pacing right at it would drain the service's allowance and draw a 429 every few seconds.
        var held = ceiling * HoldFraction;
        var recovered = _floorRate * Math.Pow(1 + RecoveryPerSecond, seconds);
        if (recovered <= held)
        {
            return recovered;
        }

        var reachedHold = Math.Log(held / _floorRate) / Math.Log(1 + RecoveryPerSecond);
        var probing = Math.Max(0, seconds - reachedHold - s_holdAtCeiling.TotalSeconds);
        return held * (1 + (ProbePerSecond * probing) + (ProbeAccelerationPerSecond * probing * probing));
    }
}
