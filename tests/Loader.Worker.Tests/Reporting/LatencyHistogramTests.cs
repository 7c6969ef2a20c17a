using Loader.Worker.Reporting;

namespace Loader.Worker.Tests.Reporting;

public sealed class LatencyHistogramTests
{
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
            Assert.InRange(measured, exact * 0.985, exact * 1.015);
        }

        Assert.Equal(samples[^1], histogram.Max.TotalMilliseconds, 0.001);
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
    }

    [Fact]
    public void An_empty_histogram_reports_zero()
    {
        Assert.Equal(TimeSpan.Zero, new LatencyHistogram().Percentile(99));
    }

    [Theory]
    [InlineData(127)]
    [InlineData(128)]
    [InlineData(1_000)]
    [InlineData(123_456_789)]
    public void Bucket_midpoints_stay_within_one_percent(long microseconds)
    {
        var midpoint = LatencyHistogram.MidpointOf(LatencyHistogram.IndexOf(microseconds));

        Assert.InRange(midpoint, microseconds * 0.99, microseconds * 1.01);
    }
}
