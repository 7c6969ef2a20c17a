using Loader.Abstractions;
using Loader.Worker.Dispatch.Concurrency;
using Microsoft.Extensions.Time.Testing;
using static Loader.Worker.Tests.Dispatch.Concurrency.ConcurrencyAnswers;

namespace Loader.Worker.Tests.Dispatch.Concurrency;

/// <summary>The adaptive limit's rule alone, on a simulated clock: what it decides from the answers it is told of.</summary>
public sealed class VegasRuleTests
{
    private static VegasRule Rule(int initial = 4, int max = 32, FakeTimeProvider? clock = null) => new(initial, 1, max, clock ?? new FakeTimeProvider());

    private static int Observe(VegasRule rule, BatchOutcome outcome, bool serviceWidePushback) => rule.Observe(Unmeasured(outcome, serviceWidePushback)).Limit;

    private static ConcurrencyDecision Answer(VegasRule rule, TimeSpan latency, int inFlight) => rule.Observe(Measured(latency, inFlight));

    [Fact]
    public void Grows_by_one_after_a_full_round_of_healthy_answers()
    {
        var rule = Rule(initial: 4);

        for (var i = 0; i < 3; i++)
        {
            Assert.Equal(4, Observe(rule, Written, false));
        }

        Assert.Equal(5, Observe(rule, Written, false));
        Assert.Equal(new ConcurrencyDecision(5, Probing: false), rule.Decision);
    }

    [Fact]
    public void Shrinks_by_thirty_percent_on_service_wide_pushback_once_per_round()
    {
        var rule = Rule(initial: 20);

        Assert.Equal(14, Observe(rule, Throttled, serviceWidePushback: true));

        // The other answers of the same round were sent at the old limit: they say nothing new.
        for (var i = 0; i < 10; i++)
        {
            Assert.Equal(14, Observe(rule, Throttled, serviceWidePushback: true));
        }

        for (var i = 0; i < 3; i++)
        {
            Observe(rule, Throttled, serviceWidePushback: true);
        }

        Assert.Equal(9, Observe(rule, Throttled, serviceWidePushback: true));
    }

    [Fact]
    public void A_hot_partition_alone_does_not_slow_the_others()
    {
        var rule = Rule(initial: 8);

        for (var i = 0; i < 50; i++)
        {
            Observe(rule, Throttled, serviceWidePushback: false);
        }

        Assert.Equal(8, rule.Decision.Limit);
    }

    [Fact]
    public void A_request_that_got_no_answer_shrinks_the_limit_as_a_throttle_does()
    {
        var rule = Rule(initial: 20);

        Assert.Equal(14, Observe(rule, new BatchOutcome { Status = BatchStatus.Transient, Error = "no answer within 60 s" }, serviceWidePushback: false));
    }

    [Fact]
    public void Stays_between_one_and_the_maximum()
    {
        var rule = Rule(initial: 2, max: 3);
        for (var i = 0; i < 100; i++)
        {
            Observe(rule, Throttled, true);
        }

        Assert.Equal(1, rule.Decision.Limit);
        for (var i = 0; i < 100; i++)
        {
            Observe(rule, Written, false);
        }

        Assert.Equal(3, rule.Decision.Limit);
    }

    /// <summary>
    /// A service that throttles whenever more than 12 batches are in flight. From any start the limit must settle in
    /// a band under that capacity — never back at 1, never up at the maximum — as AIMD does.
    /// </summary>
    [Theory]
    [InlineData(1)]
    [InlineData(64)]
    public void Settles_in_a_band_under_the_services_capacity(int initial)
    {
        const int capacity = 12;
        var rule = Rule(initial, max: 64);
        var seen = new List<int>();
        for (var answer = 0; answer < 20_000; answer++)
        {
            var overloaded = rule.Decision.Limit > capacity;
            var limit = Observe(rule, overloaded ? Throttled : Written, overloaded);
            if (answer > 2_000)
            {
                seen.Add(limit);
            }
        }

        Assert.InRange(seen.Min(), (int)(capacity * 0.7), capacity);
        Assert.InRange(seen.Max(), capacity, capacity + 1);
        Assert.InRange(seen.Average(), capacity * 0.8, capacity + 0.5);
    }

    /// <summary>
    /// Plays answers of a modelled service against the rule on a simulated clock: with <c>n</c> requests in flight an
    /// answer takes <paramref name="latency"/>(elapsed, n), and n answers come per such latency. While the rule probes,
    /// the one request in flight went alone. Returns the limit after each answer.
    /// </summary>
    private static List<int> Play(VegasRule rule, FakeTimeProvider clock, int answers, Func<TimeSpan, int, TimeSpan> latency, List<bool>? probing = null)
    {
        var started = clock.GetUtcNow();
        var limits = new List<int>(answers);
        for (var i = 0; i < answers; i++)
        {
            var inFlight = rule.Decision.Slots;
            var took = latency(clock.GetUtcNow() - started, inFlight);
            clock.Advance(took / inFlight);
            probing?.Add(rule.Decision.Probing);
            limits.Add(Answer(rule, took, inFlight).Limit);
        }

        return limits;
    }

    private static (VegasRule Rule, FakeTimeProvider Clock) Timed(int initial, int max = 32)
    {
        var clock = new FakeTimeProvider();
        return (Rule(initial, max, clock), clock);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(4)]
    [InlineData(32)]
    public void Against_a_service_of_one_worker_it_keeps_a_short_queue_instead_of_filling_every_slot(int initial)
    {
        var (rule, clock) = Timed(initial);
        var probing = new List<bool>();

        var limits = Play(rule, clock, 20_000, (_, n) => OneWorker(20, n), probing);

        // More in flight buys this service no throughput, only latency: the limit holds where one request waits while
        // another is served, not at one (the worker would idle between answers) and not at three (one more only waits).
        var settled = limits.Skip(2_000).ToList();
        Assert.Equal(2, settled.Min());
        Assert.InRange(settled.Max(), 2, 3);
        Assert.InRange(settled.Average(), 2, 2.2);
        Assert.Contains(true, probing); // the baseline was refreshed with requests sent alone
        Assert.True(probing.Count(alone => alone) < probing.Count / 50, "probes should be a small share of the answers");
    }

    [Fact]
    public void Against_a_service_that_answers_as_fast_with_more_in_flight_it_climbs_to_the_maximum()
    {
        var (rule, clock) = Timed(4, max: 32);

        var limits = Play(rule, clock, 5_000, (_, _) => TimeSpan.FromMilliseconds(30));

        Assert.Equal(32, limits[^1]);
        Assert.Equal(32, limits.Skip(1_000).Min());
    }

    [Fact]
    public void A_short_load_against_a_service_of_one_worker_starts_near_two_in_flight_not_above_the_knee()
    {
        // Azurite on the first 50,000 flights: about 1 ms of network and client, about 5 ms of service per batch; such a
        // load is about 600 answers long, so the start is most of it.
        var (rule, clock) = Timed(4);

        var limits = Play(rule, clock, 600, (_, n) => TimeSpan.FromMilliseconds(1 + (4.7 * n)));

        Assert.InRange(limits.Average(), 2, 3);
        Assert.Equal(2, limits[^1]);
    }

    /// <summary>A rule that has answered long enough against a service of one worker (full batches) to know its baseline and settle.</summary>
    private static (VegasRule Rule, FakeTimeProvider Clock, int Limit) SettledAgainstOneWorker()
    {
        var (rule, clock) = Timed(2);
        Play(rule, clock, 2_000, (_, n) => OneWorker(20, n));
        return (rule, clock, rule.Decision.Limit);
    }

    [Fact]
    public void Answers_of_a_size_no_request_went_alone_for_hold_the_limit_until_a_probe_sends_one()
    {
        var (rule, clock, limit) = SettledAgainstOneWorker();

        // The small batches a load's end flushes, fast and never sent alone: their lowest is taken among many, with the
        // queue in it, so their latency cannot tell a queue from none.
        var limits = new List<int>();
        while (!rule.Decision.Probing && limits.Count < 4_000)
        {
            var inFlight = rule.Decision.Slots;
            clock.Advance(TimeSpan.FromMilliseconds(5));
            limits.Add(rule.Observe(Measured(TimeSpan.FromMilliseconds(5), inFlight, rows: 3)).Limit);
        }

        Assert.All(limits, seen => Assert.Equal(limit, seen));
        Assert.True(rule.Decision.Probing, "a probe should come within one probe interval"); // 10 s: 2,000 answers of 5 ms
    }

    [Fact]
    public void A_round_mostly_of_sizes_none_went_alone_for_does_not_raise_the_limit_on_the_few_it_can_measure()
    {
        var (rule, clock, limit) = SettledAgainstOneWorker();

        // The flush at a load's end: small batches never sent alone, and now and then a full one answered fast.
        var limits = new List<int>();
        for (var i = 0; i < 200 && !rule.Decision.Probing; i++)
        {
            var inFlight = rule.Decision.Slots;
            var full = i % 4 == 0;
            var took = full ? OneWorker(20, 1) : TimeSpan.FromMilliseconds(5);
            clock.Advance(took / inFlight);
            limits.Add(rule.Observe(Measured(took, inFlight, rows: full ? 100 : 3)).Limit);
        }

        Assert.Equal(limit, limits.Max());
    }

    [Fact]
    public void While_fewer_are_in_flight_than_the_limit_short_latency_does_not_raise_it()
    {
        var (rule, clock, limit) = SettledAgainstOneWorker();

        // A load's last batches: one in flight at a time, answered as fast as with no queue.
        var limits = new List<int>();
        for (var i = 0; i < 200; i++)
        {
            clock.Advance(OneWorker(20, 1));
            limits.Add(rule.Observe(Measured(OneWorker(20, 1), inFlight: 1)).Limit);
        }

        Assert.Equal(limit, limits.Max());
    }

    [Theory]
    [InlineData(0.25)]
    [InlineData(0.5)]
    public void Against_a_service_that_takes_many_but_answers_with_noisy_latency_it_still_climbs_to_the_maximum(double spread)
    {
        // Latency that does not grow with requests in flight, but spreads as a real service's does (log-normal); the
        // lowest of thousands of answers is then far below a round's median, and taken as the baseline it reads as a queue.
        var (rule, clock) = Timed(4, max: 32);
        var random = new Random(7);

        var limits = Play(rule, clock, 20_000, (_, _) => TimeSpan.FromMilliseconds(25 * Math.Exp(spread * Gaussian(random))));

        Assert.InRange(limits.Skip(2_000).Average(), 24, 32);
    }

    /// <summary>A standard normal draw (Box-Muller), from a seeded source so the test plays the same answers each run.</summary>
    private static double Gaussian(Random random) =>
        Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());

    /// <summary>A service of <paramref name="workers"/> workers: flat latency up to that many in flight, then every request more waits its turn.</summary>
    private static TimeSpan Knee(int workers, double serviceMs, int inFlight) =>
        TimeSpan.FromMilliseconds(serviceMs * Math.Max(1, (double)inFlight / workers));

    [Theory]
    [InlineData(4, 1)]
    [InlineData(4, 32)]
    [InlineData(8, 4)]
    [InlineData(16, 4)]
    public void At_a_latency_knee_it_settles_between_the_knee_and_half_as_much_again(int workers, int initial)
    {
        var (rule, clock) = Timed(initial, max: 64);

        var limits = Play(rule, clock, 20_000, (_, n) => Knee(workers, 40, n));

        // Below the knee more in flight buys throughput; past it, only latency.
        var settled = limits.Skip(2_000).ToList();
        Assert.InRange(settled.Min(), workers, workers * 3 / 2);
        Assert.InRange(settled.Max(), workers, workers * 3 / 2);
    }

    [Fact]
    public void A_slow_first_answer_does_not_become_the_baseline_that_lets_the_limit_climb_past_the_knee()
    {
        // The load's first request goes alone and slow (connections opened, code compiled on both sides): ten times
        // what the service takes once warm. Taken as the baseline, every later queue would look like none.
        var (rule, clock) = Timed(4, max: 32);
        clock.Advance(TimeSpan.FromMilliseconds(400));
        Answer(rule, TimeSpan.FromMilliseconds(400), 1);

        var limits = Play(rule, clock, 3_000, (_, n) => Knee(4, 40, n));

        Assert.InRange(limits.Skip(1_000).Max(), 4, 6);
    }

    [Fact]
    public void A_service_that_slows_at_once_loses_the_whole_excess_in_one_round_not_one_slot_a_round()
    {
        var (rule, clock) = Timed(4, max: 32);
        Play(rule, clock, 3_000, (_, _) => TimeSpan.FromMilliseconds(30));
        Assert.Equal(32, rule.Decision.Limit);

        // Now one worker serves them all: 32 in flight wait ~640 ms where one took 30.
        var limits = Play(rule, clock, 40, (_, n) => OneWorker(20, n));

        Assert.InRange(limits.Min(), 2, 6);
    }

    [Fact]
    public void A_service_that_slows_as_it_fills_does_not_drag_the_limit_up_to_the_maximum_or_down_to_one()
    {
        // Azurite's cost per batch grows with the table: here six-fold over ten simulated minutes.
        var (rule, clock) = Timed(4);

        var limits = Play(rule, clock, 30_000, (elapsed, n) => OneWorker(10 + (50 * Math.Min(1, elapsed.TotalMinutes / 10)), n));

        var late = limits.Skip(20_000).ToList();
        Assert.InRange(late.Min(), 2, 3);
        Assert.InRange(late.Max(), 2, 4);
    }

    /// <summary>A few rounds against a service of one worker (the baseline known, a queue seen), then answers until a probe starts.</summary>
    private static (VegasRule Rule, FakeTimeProvider Clock) Probing()
    {
        var (rule, clock) = Timed(4);
        Play(rule, clock, 40, (_, n) => OneWorker(20, n));
        Assert.False(rule.Decision.Probing);

        clock.Advance(VegasRule.ProbeInterval);
        while (!rule.Decision.Probing)
        {
            Answer(rule, OneWorker(20, rule.Decision.Limit), rule.Decision.Limit);
        }

        return (rule, clock);
    }

    [Fact]
    public void While_a_queue_is_seen_it_probes_with_one_slot_every_probe_interval_and_three_answers_alone_end_it()
    {
        var (rule, _) = Probing();

        var limit = rule.Decision.Limit;
        Assert.Equal(1, rule.Decision.Slots);
        Assert.True(Answer(rule, OneWorker(20, 1), 1).Probing);
        Assert.True(Answer(rule, OneWorker(20, 1), 1).Probing);
        Assert.Equal(new ConcurrencyDecision(limit, Probing: false), Answer(rule, OneWorker(20, 1), 1));
    }

    [Fact]
    public void A_probe_whose_answers_never_come_alone_ends_after_five_seconds()
    {
        var (rule, clock) = Probing();

        // Answers to requests sent before the probe began, with others in flight: they do not count towards its end.
        for (var i = 0; i < 10; i++)
        {
            clock.Advance(TimeSpan.FromMilliseconds(400));
            Assert.True(Answer(rule, OneWorker(20, 4), 4).Probing);
        }

        clock.Advance(TimeSpan.FromSeconds(1.1));
        Assert.False(Answer(rule, OneWorker(20, 4), 4).Probing);
    }
}
