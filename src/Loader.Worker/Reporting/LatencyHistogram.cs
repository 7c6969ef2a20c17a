using HdrHistogram;

namespace Loader.Worker.Reporting;

/// <summary>
/// Request latencies in an HdrHistogram (microseconds, 3 significant digits: every percentile within 0.1% of the exact
/// value, 1 µs to 1 hour, about 190 KB per load whatever the number of requests). Recording is thread-safe and
/// allocation-free, as parallel batches need.
/// </summary>
public sealed class LatencyHistogram
{
    private static readonly long s_highestMicroseconds = (long)TimeSpan.FromHours(1).TotalMicroseconds;

    private readonly LongConcurrentHistogram _microseconds = new(1, s_highestMicroseconds, 3);

    public long Count => _microseconds.TotalCount;

    public TimeSpan Max => Count == 0 ? TimeSpan.Zero : TimeSpan.FromMicroseconds(_microseconds.GetMaxValue());

    public TimeSpan Mean => Count == 0 ? TimeSpan.Zero : TimeSpan.FromMicroseconds(_microseconds.GetMean());

    /// <summary>Records one latency; beyond an hour it counts as an hour (no attempt lasts that long).</summary>
    public void Record(TimeSpan latency) =>
        _microseconds.RecordValue(Math.Clamp((long)latency.TotalMicroseconds, 0, s_highestMicroseconds));

    /// <summary>The latency below or at which <paramref name="percentile"/> percent of requests completed.</summary>
    public TimeSpan Percentile(double percentile)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(percentile, 0);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(percentile, 100);
        return Count == 0 ? TimeSpan.Zero : TimeSpan.FromMicroseconds(_microseconds.GetValueAtPercentile(percentile));
    }
}
