using Loader.Worker.Dispatch.Concurrency;
using Microsoft.Extensions.Time.Testing;

namespace Loader.Worker.Tests.Dispatch.Concurrency;

/// <summary>What a request takes with no queue of the load's own, as the baseline learns it from answers.</summary>
public sealed class LatencyBaselineTests
{
    private static readonly TimeSpan s_period = TimeSpan.FromSeconds(10);

    private static LatencyBaseline Baseline(FakeTimeProvider? clock = null) => new(clock ?? new FakeTimeProvider(), s_period, periods: 3);

    private static TimeSpan Ms(double milliseconds) => TimeSpan.FromMilliseconds(milliseconds);

    [Fact]
    public void The_loads_first_answer_is_not_taken_as_one_sent_alone()
    {
        var baseline = Baseline();

        Assert.Null(baseline.Add(100, Ms(400), alone: true));
        Assert.False(baseline.Trusted);
    }

    [Fact]
    public void A_size_no_request_went_alone_for_tells_no_queue_until_one_does()
    {
        var baseline = Baseline();
        baseline.Add(100, Ms(8), alone: true);
        baseline.Add(100, Ms(8), alone: true);

        // Small batches seen only among many (a load's end flushes them): their lowest holds the queue.
        Assert.Null(baseline.Add(3, Ms(30), alone: false));
        Assert.Null(baseline.Add(3, Ms(25), alone: false));

        Assert.Equal(1, baseline.Add(3, Ms(10), alone: true)!.Value, precision: 6);
        Assert.Equal(3, baseline.Add(3, Ms(30), alone: false)!.Value, precision: 6);
    }

    [Fact]
    public void Requests_sent_alone_raise_the_baseline_by_the_services_noise_and_their_median_ignores_one_outlier()
    {
        var baseline = Baseline();
        baseline.Add(100, Ms(40), alone: true); // the load's first answer
        baseline.Add(100, Ms(10), alone: false); // the lowest: the far tail of a noisy service

        baseline.Add(100, Ms(20), alone: true);
        baseline.Add(100, Ms(21), alone: true);
        baseline.Add(100, Ms(200), alone: true); // a stall at the service
        Assert.True(baseline.Trusted);

        // Typical with no queue: the median alone (21 of 20, 21, 200) is about twice the lowest.
        Assert.Equal(1, baseline.Add(100, Ms(21), alone: false)!.Value, precision: 1);
    }

    [Fact]
    public void What_requests_sent_alone_taught_falls_away_with_the_window()
    {
        var clock = new FakeTimeProvider();
        var baseline = Baseline(clock);
        baseline.Add(100, Ms(10), alone: false);
        Assert.Equal(1, baseline.Add(100, Ms(30), alone: true)!.Value, precision: 6); // its own noise: three times the lowest
        Assert.True(baseline.Trusted);

        clock.Advance(s_period * 3);

        Assert.False(baseline.Trusted);
        Assert.Null(baseline.Add(100, Ms(12), alone: false));
    }
}
