using System.Numerics;

namespace Loader.Worker.Dispatch.Concurrency;

/// <summary>
/// What a request takes when no queue of this load's own stands before it, kept apart for batches of 1, 2-3, 4-7, ...
/// 64-100 rows (a full batch takes longer than a small one, queue or not). Two parts:
/// <list type="bullet">
/// <item>the lowest latency over the current period and the one before: every answer bounds it from above (a request sent among many
/// cannot take less than one sent alone would), so a slow first request — connections opened, code compiled — cannot
/// leave a baseline that calls every later queue normal; old periods fall away, so it follows a service that slows as its
/// tables grow (Azurite does, steeply; BBR's ProbeRTT);</item>
/// <item>times the service's own noise: how far above the lowest of their own period the last few requests sent alone
/// took (the median of their ratios). The lowest of thousands of answers is the far tail of a noisy service's latency, and a round's median
/// against it would read noise as a queue and hold the limit at a few slots on a service that takes many.</item>
/// </list>
/// Only a request sent alone proves what no queue costs (TCP Vegas's base RTT): <see cref="Trusted"/> says whether one
/// did within the window, and the limiter sends a few alone when none did. Not thread-safe: the limiter's lock guards it.
/// </summary>
internal sealed class LatencyBaseline(TimeProvider timeProvider, TimeSpan period, int periods)
{
    private const int SizeClasses = 8;

    /// <summary>How many of the latest requests sent alone measure the noise: the last probe's three and two before.</summary>
    private const int AloneKept = 5;

    /// <summary>The most the noise may raise the baseline: requests sent alone into a stall of the service must not hide a queue for long.</summary>
    private const double MostNoise = 10.0;

    private readonly long _started = timeProvider.GetTimestamp();
    private readonly double[,] _lowest = Empty(periods);
    private readonly bool[,] _aloneIn = new bool[SizeClasses, periods];
    private readonly AloneAnswer[] _alone = new AloneAnswer[AloneKept];
    private readonly double[] _noiseScratch = new double[AloneKept];
    private int _aloneCount;
    private bool _answered;
    private long _period;

    /// <summary>
    /// Whether a request sent alone was answered within the window, the load's first answer aside (slow for reasons of its
    /// own): the baseline then holds no queue of this load's own, and the service's noise is known.
    /// </summary>
    public bool Trusted
    {
        get
        {
            MoveToCurrentPeriod();
            for (var size = 0; size < SizeClasses; size++)
            {
                if (WentAlone(size))
                {
                    return true;
                }
            }

            return false;
        }
    }

    /// <summary>
    /// Takes in a served request's latency (<paramref name="alone"/>: no other request of this load was in flight when it
    /// went); returns how many times its baseline it took (below 1 for an answer faster than the service's typical), or
    /// null while no request of its size went alone within the window: its lowest may then hold the load's own queue (the
    /// small batches a load's end flushes, measured only among many, would read a queue as none).
    /// </summary>
    public double? Add(int rows, TimeSpan latency, bool alone)
    {
        MoveToCurrentPeriod();
        var size = SizeClass(Math.Max(1, rows));
        var milliseconds = latency.TotalMilliseconds;
        var slot = (int)(_period % periods);
        if (double.IsNaN(_lowest[size, slot]) || milliseconds < _lowest[size, slot])
        {
            _lowest[size, slot] = milliseconds;
        }

        if (alone && _answered)
        {
            _alone[_aloneCount++ % AloneKept] = new AloneAnswer(milliseconds, size, _period);
            _aloneIn[size, slot] = true;
        }

        _answered = true;
        if (!WentAlone(size))
        {
            return null;
        }

        return milliseconds / Math.Max(Lowest(size) * Noise(), 0.001);
    }

    private bool WentAlone(int size)
    {
        for (var p = 0; p < periods; p++)
        {
            if (_aloneIn[size, p])
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>The lowest of the current period and the one before: recent enough to follow a service that slows, and to match the noise measured within a period.</summary>
    private double Lowest(int size)
    {
        var lowest = double.PositiveInfinity;
        for (var back = 0; back < Math.Min(2, periods); back++)
        {
            var value = _lowest[size, (int)((_period - back + periods) % periods)];
            if (value < lowest)
            {
                lowest = value;
            }
        }

        return lowest;
    }

    /// <summary>The median of how many times their size's lowest the latest requests sent alone within the window took (1 with none).</summary>
    private double Noise()
    {
        var count = 0;
        foreach (var answer in _alone.AsSpan(0, Math.Min(_aloneCount, AloneKept)))
        {
            if (_period - answer.Period < periods)
            {
                // Against the lowest of its own period, not the window's: a service that slows as its tables grow would
                // otherwise pass its slowing off as noise.
                _noiseScratch[count++] = answer.Milliseconds / Math.Max(_lowest[answer.Size, (int)(answer.Period % periods)], 0.001);
            }
        }

        if (count == 0)
        {
            return 1;
        }

        var ratios = _noiseScratch.AsSpan(0, count);
        ratios.Sort();
        var median = count % 2 == 1 ? ratios[count / 2] : (ratios[(count / 2) - 1] + ratios[count / 2]) / 2;
        return Math.Clamp(median, 1, MostNoise);
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
        for (var size = 0; size < SizeClasses; size++)
        {
            _aloneIn[size, slot] = false;
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

    private readonly record struct AloneAnswer(double Milliseconds, int Size, long Period);
}
