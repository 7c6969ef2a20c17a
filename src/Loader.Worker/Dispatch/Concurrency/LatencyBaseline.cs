using System.Numerics;

namespace Loader.Worker.Dispatch.Concurrency;

/// <summary>
/// What a request takes when no queue of this load's own stands before it: the lowest latency over the last few periods,
/// kept apart for batches of 1, 2-3, 4-7, ... 64-100 rows (a full batch takes longer than a small one, queue or not).
/// Every answer bounds it from above (a request sent among many cannot take less than one sent alone would), so a
/// slow first request — connections opened, code compiled — cannot leave a baseline that calls every later queue
/// normal. Only a request sent alone proves the lowest is free of this load's own queue (TCP Vegas's base RTT):
/// <see cref="Trusted"/> says whether one did within the window, and the limiter sends a few alone when none did.
/// Old periods fall away, so the baseline follows a service that slows as its tables grow (Azurite does, steeply; BBR's
/// ProbeRTT). Not thread-safe: the limiter's lock guards it.
/// </summary>
internal sealed class LatencyBaseline(TimeProvider timeProvider, TimeSpan period, int periods)
{
    private const int SizeClasses = 8;

    private readonly long _started = timeProvider.GetTimestamp();
    private readonly double[,] _lowest = Empty(periods);
    private readonly long[] _aloneInPeriod = new long[periods];
    private long _period;

    /// <summary>Whether a request sent alone was answered within the window: the baseline then holds no queue of this load's own.</summary>
    public bool Trusted
    {
        get
        {
            MoveToCurrentPeriod();
            return _aloneInPeriod.Any(count => count > 0);
        }
    }

    /// <summary>
    /// Takes in a served request's latency (<paramref name="alone"/>: no other request of this load was in flight when it
    /// went); returns how many times its baseline it took (at least 1).
    /// </summary>
    public double Add(int rows, TimeSpan latency, bool alone)
    {
        MoveToCurrentPeriod();
        var size = SizeClass(Math.Max(1, rows));
        var milliseconds = latency.TotalMilliseconds;
        var slot = (int)(_period % periods);
        if (double.IsNaN(_lowest[size, slot]) || milliseconds < _lowest[size, slot])
        {
            _lowest[size, slot] = milliseconds;
        }

        if (alone)
        {
            _aloneInPeriod[slot]++;
        }

        var baseline = double.PositiveInfinity;
        for (var p = 0; p < periods; p++)
        {
            if (_lowest[size, p] < baseline)
            {
                baseline = _lowest[size, p];
            }
        }

        return milliseconds / Math.Max(baseline, 0.001);
    }

    private void MoveToCurrentPeriod()
    {
        var current = timeProvider.GetElapsedTime(_started).Ticks / period.Ticks;
        var passed = Math.Min(current - _period, periods);
        for (var i = 1; i <= passed; i++)
        {
            Clear((int)((_period + i) % periods));
        }

        _period = current;
    }

    private void Clear(int slot)
    {
        _aloneInPeriod[slot] = 0;
        for (var size = 0; size < SizeClasses; size++)
        {
            _lowest[size, slot] = double.NaN;
        }
    }

    private static int SizeClass(int rows) => Math.Min(SizeClasses - 1, BitOperations.Log2((uint)rows));

    private static double[,] Empty(int periods)
    {
        var lowest = new double[SizeClasses, periods];
        for (var size = 0; size < SizeClasses; size++)
        {
            for (var p = 0; p < periods; p++)
            {
                lowest[size, p] = double.NaN;
            }
        }

        return lowest;
    }
}
