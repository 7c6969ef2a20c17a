using Loader.Abstractions;
using Loader.Worker.Dispatch.Concurrency;
using Microsoft.Extensions.Time.Testing;

namespace Loader.Worker.Tests.Dispatch.Concurrency;

public sealed class AdaptiveConcurrencyLimiterTests
{
    private static readonly BatchOutcome s_written = new() { Status = BatchStatus.Written };
    private static readonly BatchOutcome s_throttled = new() { Status = BatchStatus.Throttled, ThrottledResponses = 1 };

    private static AdaptiveConcurrencyLimiter Limiter(int initial = 4, int max = 32) =>
        new(initial, 1, max, new ConcurrencyTimeline(new FakeTimeProvider()));

    /// <summary>An answer without a measured latency: the limiter learns only from its status.</summary>
    /// <summary>A wait the test expects to end: a regression that leaves it waiting fails the test instead of hanging the run.</summary>
    private static Task<T> Bounded<T>(Task<T> wait) => wait.WaitAsync(TimeSpan.FromSeconds(10), TestContext.Current.CancellationToken);

    private static void Observe(AdaptiveConcurrencyLimiter limiter, BatchOutcome outcome, bool serviceWidePushback) =>
        limiter.Observe(new AttemptObservation(outcome, Rows: 100, InFlightAtStart: 1, serviceWidePushback));

    [Fact]
    public void Grows_by_one_after_a_full_round_of_healthy_answers()
    {
        var limiter = Limiter(initial: 4);

        for (var i = 0; i < 3; i++)
        {
            Observe(limiter, s_written, false);
        }

        Assert.Equal(4, limiter.Limit);
        Observe(limiter, s_written, false);
        Assert.Equal(5, limiter.Limit);
    }

    [Fact]
    public void Shrinks_by_thirty_percent_on_service_wide_pushback_once_per_round()
    {
        var limiter = Limiter(initial: 20);

        Observe(limiter, s_throttled, serviceWidePushback: true);
        Assert.Equal(14, limiter.Limit);

        // The other answers of the same round were sent at the old limit: they say nothing new.
        for (var i = 0; i < 10; i++)
        {
            Observe(limiter, s_throttled, serviceWidePushback: true);
        }

        Assert.Equal(14, limiter.Limit);
        for (var i = 0; i < 4; i++)
        {
            Observe(limiter, s_throttled, serviceWidePushback: true);
        }

        Assert.Equal(9, limiter.Limit);
    }

    [Fact]
    public void A_hot_partition_alone_does_not_slow_the_others()
    {
        var limiter = Limiter(initial: 8);

        for (var i = 0; i < 50; i++)
        {
            Observe(limiter, s_throttled, serviceWidePushback: false);
        }

        Assert.Equal(8, limiter.Limit);
    }

    [Fact]
    public void Stays_between_one_and_the_maximum()
    {
        var limiter = Limiter(initial: 2, max: 3);
        for (var i = 0; i < 100; i++)
        {
            Observe(limiter, s_throttled, true);
        }

        Assert.Equal(1, limiter.Limit);
        for (var i = 0; i < 100; i++)
        {
            Observe(limiter, s_written, false);
        }

        Assert.Equal(3, limiter.Limit);
    }

    [Fact]
    public async Task Holds_callers_at_the_limit_and_lets_them_in_as_slots_free_or_the_limit_grows()
    {
        var limiter = Limiter(initial: 2);
        var first = await limiter.AcquireAsync(CancellationToken.None);
        using var second = await limiter.AcquireAsync(CancellationToken.None);
        var third = limiter.AcquireAsync(CancellationToken.None).AsTask();
        var fourth = limiter.AcquireAsync(CancellationToken.None).AsTask();
        Assert.False(third.IsCompleted);

        first.Dispose();
        using var thirdLease = await Bounded(third);
        Assert.False(fourth.IsCompleted);

        Observe(limiter, s_written, false);
        Observe(limiter, s_written, false); // a round of two healthy answers: three slots
        (await Bounded(fourth)).Dispose();
    }

    [Fact]
    public async Task A_cancelled_wait_gives_up_its_place_and_the_slot_goes_to_the_next_caller()
    {
        var limiter = Limiter(initial: 1);
        var first = await limiter.AcquireAsync(CancellationToken.None);
        using var stop = new CancellationTokenSource();
        var cancelled = limiter.AcquireAsync(stop.Token).AsTask();
        var next = limiter.AcquireAsync(stop.Token).AsTask();

        await stop.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => Bounded(cancelled));
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => Bounded(next));
        first.Dispose();

        // Both waiters are gone: the freed slot is there for a new caller at once.
        var again = limiter.AcquireAsync(CancellationToken.None).AsTask();
        Assert.True(again.IsCompletedSuccessfully);
        (await again).Dispose();
    }

    [Fact]
    public async Task A_wait_that_got_its_slot_is_not_cancelled_afterwards()
    {
        var limiter = Limiter(initial: 1);
        var first = await limiter.AcquireAsync(CancellationToken.None);
        using var stop = new CancellationTokenSource();
        var waiting = limiter.AcquireAsync(stop.Token).AsTask();

        first.Dispose();
        using var lease = await Bounded(waiting);
        await stop.CancelAsync(); // the registration is gone: nothing may touch the completed wait

        Assert.True(waiting.IsCompletedSuccessfully);
        Assert.False(limiter.AcquireAsync(CancellationToken.None).AsTask().IsCompleted); // the slot is still held by lease
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
        var limiter = Limiter(initial, max: 64);
        var seen = new List<int>();
        for (var answer = 0; answer < 20_000; answer++)
        {
            var overloaded = limiter.Limit > capacity;
            Observe(limiter, overloaded ? s_throttled : s_written, overloaded);
            if (answer > 2_000)
            {
                seen.Add(limiter.Limit);
            }
        }

        Assert.InRange(seen.Min(), (int)(capacity * 0.7), capacity);
        Assert.InRange(seen.Max(), capacity, capacity + 1);
        Assert.InRange(seen.Average(), capacity * 0.8, capacity + 0.5);
    }

    /// <summary>
    /// Plays answers of a modelled service against the limiter on a simulated clock: with <c>n</c> requests in flight an
    /// answer takes <paramref name="latency"/>(elapsed, n), and n answers come per such latency. While the limiter
    /// probes, the one request in flight went alone. Returns the limit after each answer.
    /// </summary>
    private static List<int> Play(AdaptiveConcurrencyLimiter limiter, FakeTimeProvider clock, int answers, Func<TimeSpan, int, TimeSpan> latency, List<bool>? probing = null)
    {
        var started = clock.GetUtcNow();
        var limits = new List<int>(answers);
        for (var i = 0; i < answers; i++)
        {
            var alone = limiter.Probing;
            var inFlight = alone ? 1 : limiter.Limit;
            var took = latency(clock.GetUtcNow() - started, inFlight);
            clock.Advance(took / inFlight);
            limiter.Observe(new AttemptObservation(BatchOutcome.Written(202, took, null), 100, inFlight, false));
            limits.Add(limiter.Limit);
            probing?.Add(alone);
        }

        return limits;
    }

    private static (AdaptiveConcurrencyLimiter Limiter, FakeTimeProvider Clock) Timed(int initial, int max = 32)
    {
        var clock = new FakeTimeProvider();
        return (new AdaptiveConcurrencyLimiter(initial, 1, max, new ConcurrencyTimeline(clock), clock), clock);
    }

    /// <summary>One worker behind the endpoint, as Azurite: every request in flight waits for the others.</summary>
    private static TimeSpan OneWorker(double serviceMs, int inFlight) => TimeSpan.FromMilliseconds(2 + (serviceMs * inFlight));

    [Theory]
    [InlineData(1)]
    [InlineData(4)]
    [InlineData(32)]
    public void Against_a_service_of_one_worker_it_keeps_a_short_queue_instead_of_filling_every_slot(int initial)
    {
        var (limiter, clock) = Timed(initial);
        var probing = new List<bool>();

        var limits = Play(limiter, clock, 20_000, (_, n) => OneWorker(20, n), probing);

        // More in flight buys this service no throughput, only latency: the limit holds where one or two requests wait
        // while another is served, not at one (the worker would idle between answers).
        var settled = limits.Skip(2_000).ToList();
        Assert.InRange(settled.Min(), 2, 3);
        Assert.InRange(settled.Max(), 3, 4);
        Assert.InRange(settled.Average(), 2.5, 3.5);
        Assert.Contains(true, probing); // the baseline was refreshed with requests sent alone
        Assert.True(probing.Count(alone => alone) < probing.Count / 50, "probes should be a small share of the answers");
    }

    [Fact]
    public void Against_a_service_that_answers_as_fast_with_more_in_flight_it_climbs_to_the_maximum()
    {
        var (limiter, clock) = Timed(4, max: 32);

        var limits = Play(limiter, clock, 5_000, (_, _) => TimeSpan.FromMilliseconds(30));

        Assert.Equal(32, limits[^1]);
        Assert.Equal(32, limits.Skip(1_000).Min());
    }

    [Fact]
    public void A_service_that_slows_at_once_loses_the_whole_excess_in_one_round_not_one_slot_a_round()
    {
        var (limiter, clock) = Timed(4, max: 32);
        Play(limiter, clock, 3_000, (_, _) => TimeSpan.FromMilliseconds(30));
        Assert.Equal(32, limiter.Limit);

        // Now one worker serves them all: 32 in flight wait ~640 ms where one took 30.
        var limits = Play(limiter, clock, 40, (_, n) => OneWorker(20, n));

        Assert.InRange(limits.Min(), 2, 6);
    }

    [Fact]
    public void A_service_that_slows_as_it_fills_does_not_drag_the_limit_up_to_the_maximum_or_down_to_one()
    {
        // Azurite's cost per batch grows with the table: here six-fold over ten simulated minutes.
        var (limiter, clock) = Timed(4);

        var limits = Play(limiter, clock, 30_000, (elapsed, n) => OneWorker(10 + (50 * Math.Min(1, elapsed.TotalMinutes / 10)), n));

        var late = limits.Skip(20_000).ToList();
        Assert.InRange(late.Min(), 2, 3);
        Assert.InRange(late.Max(), 2, 4);
    }

    [Fact]
    public async Task While_a_queue_is_seen_it_sends_one_request_alone_every_probe_interval_then_reopens()
    {
        var (limiter, clock) = Timed(4);
        Play(limiter, clock, 40, (_, n) => OneWorker(20, n)); // a few rounds: the baseline is known, a queue is seen
        Assert.False(limiter.Probing);

        clock.Advance(AdaptiveConcurrencyLimiter.ProbeInterval);
        while (!limiter.Probing)
        {
            var n = limiter.Limit;
            limiter.Observe(new AttemptObservation(BatchOutcome.Written(202, OneWorker(20, n), null), 100, n, false));
        }

        var alone = await limiter.AcquireAsync(CancellationToken.None);
        var next = limiter.AcquireAsync(CancellationToken.None).AsTask();
        Assert.Equal(1, alone.InFlightAtStart);
        Assert.False(next.IsCompleted); // nobody else goes while it probes
        alone.Dispose();
        (await Bounded(next)).Dispose();

        for (var i = 0; i < 3; i++)
        {
            limiter.Observe(new AttemptObservation(BatchOutcome.Written(202, OneWorker(20, 1), null), 100, 1, false));
        }

        Assert.False(limiter.Probing);
    }

    [Fact]
    public void A_request_that_got_no_answer_shrinks_the_limit_as_a_throttle_does()
    {
        var limiter = Limiter(initial: 20);

        Observe(limiter, new BatchOutcome { Status = BatchStatus.Transient, Error = "no answer within 60 s" }, serviceWidePushback: false);

        Assert.Equal(14, limiter.Limit);
    }
}
