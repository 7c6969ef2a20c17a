using Loader.ThrottlingSimulator;
using Loader.Worker.Estimate;
using Microsoft.Extensions.Time.Testing;

namespace Loader.Worker.Tests.Estimate;

/// <summary>Where the sample's ramp stops and what it concludes from its steps.</summary>
public sealed class RampOutcomeTests
{
    private static RampStep Step(int step, int concurrency, double rowsPerSecond, double latencyP50Ms) =>
        new(step, concurrency, 1_000L << (step - 1), (long)rowsPerSecond, 20, 1, rowsPerSecond, null, latencyP50Ms, 0, false, null, null);

    [Fact]
    public async Task A_budget_whose_burst_outlasted_the_first_step_is_found_with_its_rate_and_burst()
    {
        // 3,000 RU/s with 3 s of burst (9,000 RU). Step 1 writes 1,000 rows (5,000 RU) at 1,000 rows/s: inside the burst.
        // Step 2 asks for 5,000 rows/s and is throttled within a second.
        var clock = new FakeTimeProvider();
        var probe = new SampleProbe(new BudgetedTargetDouble(new TokenBucket(3_000, 9_000, clock)), clock);
        probe.BeginStep(1, null);
        await RampStepTests.SendAsync(probe, clock, 50, TimeSpan.FromMilliseconds(50), TimeSpan.FromSeconds(1));
        var first = RampStep.Measure(1, 4, 1_000, [.. probe.Attempts.Where(attempt => attempt.Step == 1)], cut: false)!;
        probe.BeginStep(2, null);
        await RampStepTests.SendAsync(probe, clock, 50, TimeSpan.FromMilliseconds(10), TimeSpan.FromSeconds(3));
        var second = RampStep.Measure(2, 8, 2_000, [.. probe.Attempts.Where(attempt => attempt.Step == 2)], cut: true)!;

        Assert.False(RampOutcome.Stops([first]));
        Assert.True(RampOutcome.Stops([first, second]));
        var ramp = RampOutcome.Conclude([first, second], probe.Attempts, 16, probe.Now)!;

        Assert.Equal(PaceLimit.ServiceBudget, ramp.Limit);
        Assert.Equal(600, ramp.RowsPerSecond, tolerance: 6);
        Assert.Equal(9_000, ramp.BurstRequestUnits!.Value, tolerance: 300);
        Assert.Equal(1_800, ramp.BurstRows!.Value, tolerance: 60);
        Assert.Equal(5, ramp.RequestUnitsPerRow);
        Assert.Equal(700, ramp.RequestBytesPerRow);
        Assert.Contains("it throttled at 8 batches in flight (step 2)", ramp.Why, StringComparison.Ordinal);
    }

    [Fact]
    public void Latency_that_doubles_while_rows_per_second_stop_growing_is_the_knee()
    {
        var ramp = RampOutcome.Conclude([Step(1, 4, 1_000, 40), Step(2, 8, 1_900, 45), Step(3, 16, 2_000, 95)], [], 16, 4)!;

        Assert.True(RampOutcome.Stops([Step(1, 4, 1_000, 40), Step(2, 8, 1_900, 45), Step(3, 16, 2_000, 95)]));
        Assert.Equal((PaceLimit.ServiceLatency, 2_000), (ramp.Limit, ramp.RowsPerSecond));
        Assert.StartsWith("at 16 batches in flight (step 3) its median latency rose to 95.0 ms from 40.0 ms", ramp.Why, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(95, 2_500)] // latency doubled, but rows/s still grew by a quarter: the service kept up
    [InlineData(48, 2_000)] // rows/s flat, but latency rose by a fifth only
    [InlineData(8, 2_000)] // from 1 ms to 8 ms is eight times, but milliseconds of noise, not a queue (first step at 1 ms below)
    public void No_knee_without_both_a_latency_rise_and_rows_per_second_that_stop_growing(double latency, double rowsPerSecond)
    {
        var firstLatency = latency < 10 ? 1 : 40;
        RampStep[] steps = [Step(1, 4, 1_000, firstLatency), Step(2, 8, 2_000, firstLatency), Step(3, 16, rowsPerSecond, latency)];

        Assert.False(RampOutcome.Stops(steps));
        Assert.Equal(PaceLimit.Concurrency, RampOutcome.Conclude(steps, [], 16, 5)!.Limit);
    }

    [Fact]
    public void At_the_most_batches_in_flight_without_pushback_the_limit_is_the_loader_s_concurrency()
    {
        var ramp = RampOutcome.Conclude([Step(1, 4, 1_000, 40), Step(2, 8, 1_900, 41), Step(3, 16, 3_600, 42), Step(4, 16, 3_900, 42)], [], 16, 5.2)!;

        Assert.Equal((PaceLimit.Concurrency, 3_900), (ramp.Limit, ramp.RowsPerSecond));
        Assert.Equal("3,900 rows/s at Loader:MaxParallelBatches (16) batches in flight, and no throttling in 5.2 s of sample", ramp.Why);
    }

    [Fact]
    public void Out_of_time_below_the_most_batches_in_flight_nothing_is_found_and_the_pace_is_what_the_rest_could_reach()
    {
        var ramp = RampOutcome.Conclude([Step(1, 4, 1_000, 40), Step(2, 8, 1_900, 41)], [], 32, 6)!;

        Assert.Equal(PaceLimit.None, ramp.Limit);
        Assert.Equal(7_600, ramp.RowsPerSecond); // 1,900 rows/s at 8 in flight, times 32 / 8
        Assert.Null(RampOutcome.Conclude([], [], 16, 1));
    }
}
