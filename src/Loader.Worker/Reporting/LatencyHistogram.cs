using System.Numerics;

namespace Loader.Worker.Reporting;

/// <summary>
/// Batch latencies in a log-linear histogram (the HdrHistogram layout: 64 linear sub-buckets per power of two),
/// so percentiles come out within 1.6% of the exact value at a fixed 15 KB whatever the number of batches.
/// Written here because the team's NuGet mirror does not serve HdrHistogram. Thread-safe.
/// </summary>
public sealed class LatencyHistogram
{
    private const int SubBucketBits = 6;
    private const int SubBuckets = 1 << SubBucketBits;            // 64
    private const int LinearLimit = SubBuckets * 2;               // values below 128 µs are kept exactly
    private const int MaxShift = 40;                              // beyond four years: clamped

    private readonly long[] _counts = new long[LinearLimit + (MaxShift * SubBuckets)];
    private long _total;
    private long _maxMicroseconds;
    private long _sumMicroseconds;

    public long Count => Interlocked.Read(ref _total);

    public TimeSpan Max => TimeSpan.FromMicroseconds(Interlocked.Read(ref _maxMicroseconds));

    public TimeSpan Mean => Count == 0 ? TimeSpan.Zero : TimeSpan.FromMicroseconds((double)Interlocked.Read(ref _sumMicroseconds) / Count);

    public void Record(TimeSpan latency)
    {
        var microseconds = Math.Max(0, (long)latency.TotalMicroseconds);
        Interlocked.Increment(ref _counts[IndexOf(microseconds)]);
        Interlocked.Increment(ref _total);
        Interlocked.Add(ref _sumMicroseconds, microseconds);
        long max;
        while (microseconds > (max = Interlocked.Read(ref _maxMicroseconds)))
        {
            if (Interlocked.CompareExchange(ref _maxMicroseconds, microseconds, max) == max)
            {
                break;
            }
        }
    }

    /// <summary>The latency below or at which <paramref name="percentile"/> percent of batches completed (nearest rank).</summary>
    public TimeSpan Percentile(double percentile)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(percentile, 0);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(percentile, 100);
        var total = Count;
        if (total == 0)
        {
            return TimeSpan.Zero;
        }

        var rank = Math.Max(1, (long)Math.Ceiling(percentile / 100 * total));
        long seen = 0;
        for (var i = 0; i < _counts.Length; i++)
        {
            seen += Interlocked.Read(ref _counts[i]);
            if (seen >= rank)
            {
                return TimeSpan.FromMicroseconds(Math.Min(MidpointOf(i), Interlocked.Read(ref _maxMicroseconds)));
            }
        }

        return Max;
    }

    internal static int IndexOf(long microseconds)
    {
        if (microseconds < LinearLimit)
        {
            return (int)microseconds;
        }

        // Keep the top SubBucketBits+1 bits: the value's leading one and the 6 bits after it.
        var shift = Math.Min(MaxShift, 63 - BitOperations.LeadingZeroCount((ulong)microseconds) - SubBucketBits);
        var mantissa = Math.Min(LinearLimit - 1, microseconds >> shift);           // in [64, 127]
        return LinearLimit + ((shift - 1) * SubBuckets) + (int)(mantissa - SubBuckets);
    }

    internal static long MidpointOf(int index)
    {
        if (index < LinearLimit)
        {
            return index;
        }

        var shift = ((index - LinearLimit) / SubBuckets) + 1;
        var mantissa = ((index - LinearLimit) % SubBuckets) + SubBuckets;
        return (mantissa << shift) + ((1L << shift) / 2);
    }
}
