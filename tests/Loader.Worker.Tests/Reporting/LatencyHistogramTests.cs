using Loader.Worker.Reporting;

namespace Loader.Worker.Tests.Reporting;

public sealed class LatencyHistogramTests
{
    [Fact]
    public void Buckets_on_a_log_scale_hold_every_request_from_the_fastest_to_the_slowest()
    {
        var histogram = new LatencyHistogram();
        for (var i = 0; i < 1_000; i++)
        {
            histogram.Record(TimeSpan.FromMilliseconds(5 + (i % 100)));
        }

        histogram.Record(TimeSpan.FromSeconds(3));

        var buckets = histogram.Buckets();
        Assert.Equal(1_001, buckets.Sum(bucket => bucket.Requests));
        Assert.InRange(buckets.Count, 10, 40);
        Assert.InRange(buckets[0].FromMs, 4.9, 5.01);
        Assert.True(buckets[^1].ToMs >= 3_000 && buckets[^1].Requests == 1);
        var ratios = buckets.Select(bucket => bucket.ToMs / bucket.FromMs).ToList();
        Assert.All(ratios, ratio => Assert.Equal(ratios[0], ratio, 3)); // equal width on a log scale
        Assert.Empty(new LatencyHistogram().Buckets());
    }

    [Fact]
    public void Percentiles_are_within_the_histograms_precision_of_the_exact_values()
    {
        var random = new Random(1);
        var histogram = new LatencyHistogram();
        var samples = new List<double>();
        for (var i = 0; i < 20_000; i++)
        {
            // Log-normal-ish latencies from 0.1 ms to a few seconds.
            var milliseconds = Math.Exp((random.NextDouble() * 10) - 2);
            samples.Add(milliseconds);
            histogram.Record(TimeSpan.FromMilliseconds(milliseconds));
        }

        samples.Sort();
        foreach (var percentile in new[] { 50.0, 90, 95, 99, 99.9 })
        {
            var exact = samples[(int)Math.Ceiling(percentile / 100 * samples.Count) - 1];
            var measured = histogram.Percentile(percentile).TotalMilliseconds;
            Assert.InRange(measured, exact * 0.998, exact * 1.002);
        }

        Assert.InRange(histogram.Max.TotalMilliseconds, samples[^1] * 0.999, samples[^1] * 1.001);
        Assert.InRange(histogram.Mean.TotalMilliseconds, samples.Average() * 0.999, samples.Average() * 1.001);
        Assert.Equal(20_000, histogram.Count);
    }

    [Fact]
    public void Small_values_are_exact_and_the_nearest_rank_is_used()
    {
        var histogram = new LatencyHistogram();
        foreach (var microseconds in new[] { 10, 20, 30, 40 })
        {
            histogram.Record(TimeSpan.FromMicroseconds(microseconds));
        }

        Assert.Equal(TimeSpan.FromMicroseconds(20), histogram.Percentile(50));
        Assert.Equal(TimeSpan.FromMicroseconds(40), histogram.Percentile(99));
        Assert.Equal(TimeSpan.FromMicroseconds(10), histogram.Percentile(0));
        Assert.Equal(TimeSpan.FromMicroseconds(25), histogram.Mean);
    }

    [Fact]
    public void An_empty_histogram_reports_zero()
    {
        var histogram = new LatencyHistogram();

        Assert.Equal(TimeSpan.Zero, histogram.Percentile(99));
        Assert.Equal(TimeSpan.Zero, histogram.Max);
        Assert.Equal(TimeSpan.Zero, histogram.Mean);
    }

    [Fact]
    public void Parallel_batches_recording_at_once_lose_no_latency()
    {
        var histogram = new LatencyHistogram();

        Parallel.For(0, 4, new ParallelOptions { MaxDegreeOfParallelism = 4 }, thread =>
        {
            for (var i = 1; i <= 50_000; i++)
            {
                histogram.Record(TimeSpan.FromMicroseconds(i));
            }
        });

        Assert.Equal(200_000, histogram.Count);
        Assert.InRange(histogram.Percentile(50).TotalMicroseconds, 25_000 * 0.999, 25_000 * 1.001);
        Assert.InRange(histogram.Max.TotalMicroseconds, 50_000, 50_000 * 1.001);
    }

    [Fact]
    public void A_latency_beyond_the_range_counts_as_an_hour_instead_of_failing_the_load()
    {
        var histogram = new LatencyHistogram();

        histogram.Record(TimeSpan.FromDays(2));
        histogram.Record(TimeSpan.FromTicks(-5));

        Assert.Equal(2, histogram.Count);
        Assert.InRange(histogram.Max.TotalHours, 1, 1.001);
        Assert.Equal(TimeSpan.Zero, histogram.Percentile(0));
    }
}
