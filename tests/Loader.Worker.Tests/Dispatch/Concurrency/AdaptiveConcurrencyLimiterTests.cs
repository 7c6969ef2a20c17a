using Loader.Abstractions;
using Loader.Worker.Dispatch.Concurrency;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Dispatch.Concurrency;

public sealed class AdaptiveConcurrencyLimiterTests
{
    private static readonly BatchOutcome s_written = new() { Status = BatchStatus.Written };
    private static readonly BatchOutcome s_throttled = new() { Status = BatchStatus.Throttled, ThrottledResponses = 1 };

    private static AdaptiveConcurrencyLimiter Limiter(int initial = 4, int max = 32) =>
        new(initial, 1, max, new ConcurrencyTimeline(new ManualTimeProvider()));

    [Fact]
    public void Grows_by_one_after_a_full_round_of_healthy_answers()
    {
        var limiter = Limiter(initial: 4);

        for (var i = 0; i < 3; i++)
        {
            limiter.Observe(s_written, false);
        }

        Assert.Equal(4, limiter.Limit);
        limiter.Observe(s_written, false);
        Assert.Equal(5, limiter.Limit);
    }

    [Fact]
    public void Shrinks_by_thirty_percent_on_service_wide_pushback_once_per_round()
    {
        var limiter = Limiter(initial: 20);

        limiter.Observe(s_throttled, serviceWidePushback: true);
        Assert.Equal(14, limiter.Limit);

        // The other answers of the same round were sent at the old limit: they say nothing new.
        for (var i = 0; i < 10; i++)
        {
            limiter.Observe(s_throttled, serviceWidePushback: true);
        }

        Assert.Equal(14, limiter.Limit);
        for (var i = 0; i < 4; i++)
        {
            limiter.Observe(s_throttled, serviceWidePushback: true);
        }

        Assert.Equal(9, limiter.Limit);
    }

    [Fact]
    public void A_hot_partition_alone_does_not_slow_the_others()
    {
        var limiter = Limiter(initial: 8);

        for (var i = 0; i < 50; i++)
        {
            limiter.Observe(s_throttled, serviceWidePushback: false);
        }

        Assert.Equal(8, limiter.Limit);
    }

    [Fact]
    public void Stays_between_one_and_the_maximum()
    {
        var limiter = Limiter(initial: 2, max: 3);
        for (var i = 0; i < 100; i++)
        {
            limiter.Observe(s_throttled, true);
        }

        Assert.Equal(1, limiter.Limit);
        for (var i = 0; i < 100; i++)
        {
            limiter.Observe(s_written, false);
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
        using var thirdLease = await third;
        Assert.False(fourth.IsCompleted);

        limiter.Observe(s_written, false);
        limiter.Observe(s_written, false); // a round of two healthy answers: three slots
        (await fourth).Dispose();
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
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => cancelled);
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => next);
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
        using var lease = await waiting;
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
            limiter.Observe(overloaded ? s_throttled : s_written, overloaded);
            if (answer > 2_000)
            {
                seen.Add(limiter.Limit);
            }
        }

        Assert.InRange(seen.Min(), (int)(capacity * 0.7), capacity);
        Assert.InRange(seen.Max(), capacity, capacity + 1);
        Assert.InRange(seen.Average(), capacity * 0.8, capacity + 0.5);
    }
}
