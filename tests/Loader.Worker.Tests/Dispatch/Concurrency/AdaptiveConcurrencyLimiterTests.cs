using Loader.Abstractions;
using Loader.Worker.Dispatch.Concurrency;
using Microsoft.Extensions.Time.Testing;
using static Loader.Worker.Tests.Dispatch.Concurrency.ConcurrencyAnswers;

namespace Loader.Worker.Tests.Dispatch.Concurrency;

/// <summary>The limiter as the dispatcher uses it: the rule's decisions applied to the slots and the timeline.</summary>
public sealed class AdaptiveConcurrencyLimiterTests
{
    private static void Observe(AdaptiveConcurrencyLimiter limiter, BatchOutcome outcome, bool serviceWidePushback) =>
        limiter.Observe(Unmeasured(outcome, serviceWidePushback));

    [Fact]
    public async Task A_caller_held_at_the_limit_gets_in_once_the_rule_raises_it()
    {
        var limiter = new AdaptiveConcurrencyLimiter(2, 1, 32, new ConcurrencyTimeline(new FakeTimeProvider()));
        using var first = await limiter.AcquireAsync(CancellationToken.None);
        using var second = await limiter.AcquireAsync(CancellationToken.None);
        var third = limiter.AcquireAsync(CancellationToken.None).AsTask();

        Observe(limiter, Written, false);
        Assert.False(third.IsCompleted);
        Observe(limiter, Written, false); // a round of two healthy answers: three slots

        Assert.Equal(3, limiter.Limit);
        (await Bounded(third)).Dispose();
    }

    [Fact]
    public void Every_change_of_the_limit_goes_to_the_timeline()
    {
        var clock = new FakeTimeProvider();
        var timeline = new ConcurrencyTimeline(clock);
        var limiter = new AdaptiveConcurrencyLimiter(10, 1, 11, timeline, clock);

        clock.Advance(TimeSpan.FromSeconds(1));
        Observe(limiter, Throttled, serviceWidePushback: true); // 10 → 7
        clock.Advance(TimeSpan.FromSeconds(1));
        for (var i = 0; i < 7; i++)
        {
            Observe(limiter, Written, false); // a round: 7 → 8
        }

        clock.Advance(TimeSpan.FromSeconds(2));
        Assert.Equal(new ConcurrencySummary(7, Math.Round(((10 * 1) + (7 * 1) + (8 * 2)) / 4.0, 2), 10, 8), timeline.Summary());
    }

    [Fact]
    public async Task While_a_queue_is_seen_it_sends_one_request_alone_every_probe_interval_then_reopens()
    {
        var clock = new FakeTimeProvider();
        var limiter = new AdaptiveConcurrencyLimiter(4, 1, 32, new ConcurrencyTimeline(clock), clock);
        for (var i = 0; i < 40; i++) // a few rounds of a service of one worker: the baseline is known, a queue is seen
        {
            var n = limiter.Probing ? 1 : limiter.Limit;
            clock.Advance(OneWorker(20, n) / n);
            limiter.Observe(Measured(OneWorker(20, n), n));
        }

        Assert.False(limiter.Probing);
        clock.Advance(VegasRule.ProbeInterval);
        while (!limiter.Probing)
        {
            var n = limiter.Limit;
            limiter.Observe(Measured(OneWorker(20, n), n));
        }

        var alone = await limiter.AcquireAsync(CancellationToken.None);
        var next = limiter.AcquireAsync(CancellationToken.None).AsTask();
        Assert.Equal(1, alone.InFlightAtStart);
        Assert.False(next.IsCompleted); // nobody else goes while it probes
        alone.Dispose();
        using var nextLease = await Bounded(next);
        var third = limiter.AcquireAsync(CancellationToken.None).AsTask();
        Assert.False(third.IsCompleted);

        for (var i = 0; i < 3; i++)
        {
            limiter.Observe(Measured(OneWorker(20, 1), 1));
        }

        Assert.False(limiter.Probing);
        (await Bounded(third)).Dispose(); // the probe over, the limit's slots are open again
    }
}
