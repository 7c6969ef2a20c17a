using HdrHistogram;

namespace Loader.Worker.Reporting;

/// <summary>
/// Request latencies in an HdrHistogram (microseconds, 3 significant digits: every percentile within 0.1% of the exact
/// value, 1 µs to 1 hour, about 190 KB per load whatever the number of requests). Recording is thread-safe and
/// allocation-free, as parallel batches need.
/// </summary>
internal sealed class LatencyHistogram
{
    private static readonly long s_highestMicroseconds = (long)TimeSpan.FromHours(1).TotalMicroseconds;

    private readonly LongConcurrentHistogram _microseconds = new(1, s_highestMicroseconds, 3);

    public long Count => _microseconds.TotalCount;

    public TimeSpan Max => Count == 0 ? TimeSpan.Zero : TimeSpan.FromMicroseconds(_microseconds.GetMaxValue());

    public TimeSpan Mean => Count == 0 ? TimeSpan.Zero : TimeSpan.FromMicroseconds(_microseconds.GetMean());

    /// <summary>Records one latency; beyond an hour it counts as an hour (no attempt lasts that long).</summary>
    public void Record(TimeSpan latency) =>
        _microseconds.RecordValue(Math.Clamp((long)latency.TotalMicroseconds, 0, s_highestMicroseconds));

    /// <summary>
    /// The distribution as buckets of equal width on a log scale (each bucket's upper bound a fixed factor above its
    /// lower), from the smallest latency recorded to the largest, for drawing: latencies span orders of magnitude, and a
    /// log scale shows both the bulk and the tail. HdrHistogram's .NET port has no logarithmic iterator, so its recorded
    /// values are put in buckets here.
    /// </summary>
    public IReadOnlyList<LatencyBucket> Buckets(int maxBuckets = 40)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(maxBuckets, 1);
        if (Count == 0)
        {
            return [];
        }

        var lowest = Math.Max(1, _microseconds.RecordedValues().First().ValueIteratedTo);
        var highest = Math.Max(lowest + 1, _microseconds.GetMaxValue());
        // A quarter of an octave per bucket, or wider when the range needs more than maxBuckets of them.
        var factor = Math.Max(Math.Pow(2, 0.25), Math.Pow((double)highest / lowest, 1.0 / maxBuckets) * 1.000001);
        var count = Math.Max(1, (int)Math.Ceiling(Math.Log((double)highest / lowest, factor) + 1e-9));
        count = Math.Min(count, maxBuckets);
        var requests = new long[count];
        foreach (var value in _microseconds.RecordedValues())
        {
            var index = (int)Math.Floor(Math.Log(Math.Max(lowest, value.ValueIteratedTo) / (double)lowest, factor));
            requests[Math.Clamp(index, 0, count - 1)] += value.CountAddedInThisIterationStep;
        }

        return [.. requests.Select((rows, index) => new LatencyBucket(
            Math.Round(lowest * Math.Pow(factor, index) / 1000, 3),
            Math.Round(lowest * Math.Pow(factor, index + 1) / 1000, 3),
            rows))];
    }

    /// <summary>The latency below or at which <paramref name="percentile"/> percent of requests completed.</summary>
    public TimeSpan Percentile(double percentile)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(percentile, 0);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(percentile, 100);
        return Count == 0 ? TimeSpan.Zero : TimeSpan.FromMicroseconds(_microseconds.GetValueAtPercentile(percentile));
    }
}

/// <summary>Requests whose latency lay in [<paramref name="FromMs"/>, <paramref name="ToMs"/>) milliseconds.</summary>
internal sealed record LatencyBucket(double FromMs, double ToMs, long Requests);
