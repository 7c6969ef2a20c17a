using Loader.ThrottlingSimulator;
using Loader.Worker.Estimate;
using Microsoft.Extensions.Time.Testing;

namespace Loader.Worker.Tests.Estimate;

/// <summary>
/// A step of the sample as <see cref="SampleProbe"/> records it and <see cref="RampStep"/> measures it, against a budget of
/// the throttling simulator's own token bucket on a simulated clock.
/// </summary>
public sealed class RampStepTests
{
    private readonly FakeTimeProvider _clock = new();

    /// <summary>Sends a batch of <paramref name="rows"/> rows through the probe every <paramref name="every"/> for <paramref name="duration"/>.</summary>
    internal static async Task SendAsync(SampleProbe probe, FakeTimeProvider clock, int rows, TimeSpan every, TimeSpan duration)
    {
        for (var elapsed = TimeSpan.Zero; elapsed < duration; elapsed += every)
        {
            await probe.WriteBatchAsync(BudgetedTargetDouble.Batch(rows), CancellationToken.None);
            clock.Advance(every);
        }
    }

    [Fact]
    public async Task Under_throttling_the_pace_is_what_the_budget_refills_not_the_burst_before_it()
    {
        // 3,000 RU/s with 3 s of burst (9,000 RU), asked for 25,000 RU/s: 50 rows of 5 RU every 10 ms, for 3 s.
        var probe = new SampleProbe(new BudgetedTargetDouble(new TokenBucket(3_000, 9_000, _clock)), _clock);
        var throttles = 0;
        probe.BeginStep(1, () => throttles++);

        await SendAsync(probe, _clock, 50, TimeSpan.FromMilliseconds(10), TimeSpan.FromSeconds(3));
        var step = RampStep.Measure(1, 16, 15_000, probe.Attempts, cut: true)!;

        // Over the whole step the burst doubles the pace: 9,000 RU + 3 s × 3,000 RU/s = 3,600 rows in 3 s.
        Assert.Equal(1_200, step.RowsPerSecond, tolerance: 20);
        Assert.True(step.Throttled > 100, $"{step.Throttled} throttled");
        Assert.Equal(1, throttles); // told once, at the first
        // From the first throttle on, only the budget: 3,000 RU/s, 600 rows/s.
        var sustained = step.Sustained!;
        Assert.Equal(600, sustained.RowsPerSecond, tolerance: 6);
        Assert.Equal(3_000, sustained.RequestUnitsPerSecond!.Value, tolerance: 30);
        Assert.True(sustained.LateThrottles > 0, "asked for more than the budget to the end, the sample was throttled to the end");
        Assert.Equal(0.41, step.FirstThrottleAt!.Value, tolerance: 0.01); // 9,000 RU at 22,000 RU/s more than refilled
    }

    [Fact]
    public async Task A_step_the_service_never_throttled_measures_no_sustained_rate()
    {
        var probe = new SampleProbe(new BudgetedTargetDouble(new TokenBucket(3_000, 9_000, _clock)), _clock);
        probe.BeginStep(1, null);

        await SendAsync(probe, _clock, 20, TimeSpan.FromMilliseconds(50), TimeSpan.FromSeconds(1));
        var step = RampStep.Measure(1, 4, 400, probe.Attempts, cut: false)!;

        Assert.Equal((400L, 0L), (step.RowsWritten, step.Throttled));
        Assert.Null(step.Sustained);
        Assert.Null(step.FirstThrottleAt);
        Assert.Equal(2_000, step.RequestUnits);
    }
}
