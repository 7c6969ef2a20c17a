using Loader.Worker.Dispatch.Pacing;
using Microsoft.Extensions.Time.Testing;

namespace Loader.Worker.Tests.Dispatch.Pacing;

public sealed class RateBucketTests
{
    private readonly FakeTimeProvider _time = new();

    /// <summary>Takes as often as the bucket allows over simulated time; returns what was granted.</summary>
    private async Task<double> DrainAsync(RateBucket bucket, double cost, TimeSpan duration)
    {
        double granted = 0;
        var end = _time.GetUtcNow() + duration;
        while (_time.GetUtcNow() < end)
        {
            var take = bucket.TakeAsync(cost, CancellationToken.None).AsTask();
            while (!take.IsCompleted)
            {
                _time.Advance(TimeSpan.FromMilliseconds(1));
                await Task.Yield();
            }

            await take;
            granted += cost;
        }

        return granted;
    }

    [Fact]
    public async Task Holds_its_rate_over_time_after_the_initial_burst()
    {
        var bucket = new RateBucket(1000, 0.2, _time);

        var granted = await DrainAsync(bucket, 50, TimeSpan.FromSeconds(60));

        // 60 s at 1,000/s plus the 200 the bucket held at the start, give or take one take.
        Assert.InRange(granted, 60_000, 60_200 + 50);
    }

    [Fact]
    public async Task A_take_larger_than_the_bucket_goes_into_debt_and_the_next_ones_wait_it_off()
    {
        var bucket = new RateBucket(100, 1, _time);

        await bucket.TakeAsync(500, CancellationToken.None); // 100 held: 400 owed
        Assert.Equal(-400, bucket.Available, 3);
        var next = bucket.TakeAsync(1, CancellationToken.None).AsTask();
        _time.Advance(TimeSpan.FromSeconds(3.9));
        await Task.Yield();
        Assert.False(next.IsCompleted);

        _time.Advance(TimeSpan.FromSeconds(0.2));
        await next;
    }

    [Fact]
    public void Settling_gives_back_or_charges_the_difference_but_never_beyond_capacity()
    {
        var bucket = new RateBucket(100, 1, _time);

        bucket.Settle(-250);
        Assert.Equal(-150, bucket.Available, 3);
        bucket.Settle(1_000);
        Assert.Equal(100, bucket.Available, 3);
    }

    [Fact]
    public async Task An_unlimited_bucket_never_waits()
    {
        var bucket = new RateBucket(double.PositiveInfinity, 1, _time);

        for (var i = 0; i < 1_000; i++)
        {
            var take = bucket.TakeAsync(1e9, CancellationToken.None).AsTask();
            Assert.True(take.IsCompleted);
            await take;
        }
    }

    /// <summary>A wait of 10^12 s is more than Task.Delay or a TimeSpan holds: it is waited a slice at a time instead.</summary>
    [Fact]
    public async Task A_rate_so_low_no_timer_holds_its_wait_waits_in_slices_and_sees_a_raised_rate()
    {
        var bucket = new RateBucket(1e-10, 0.2, _time);
        await bucket.TakeAsync(100, CancellationToken.None); // the full bucket lets the first go, into debt

        var next = bucket.TakeAsync(1, CancellationToken.None).AsTask();
        await AdvanceAsync(TimeSpan.FromMinutes(3));
        Assert.False(next.IsCompleted, next.Exception?.ToString() ?? "the take ended although the rate allows nothing for years");

        bucket.SetRate(1_000);
        await AdvanceAsync(TimeSpan.FromMinutes(1));
        Assert.True(next.IsCompletedSuccessfully, next.Exception?.ToString() ?? "the take still waits a minute after the rate was raised");
    }

    private async Task AdvanceAsync(TimeSpan duration)
    {
        for (var elapsed = TimeSpan.Zero; elapsed < duration; elapsed += TimeSpan.FromSeconds(1))
        {
            _time.Advance(TimeSpan.FromSeconds(1));
            await Task.Yield();
        }
    }

    [Fact]
    public void A_lower_rate_drops_the_tokens_above_its_capacity()
    {
        var bucket = new RateBucket(1_000, 1, _time);

        bucket.SetRate(100);

        Assert.Equal(100, bucket.Available, 3);
        Assert.Equal(100, bucket.RatePerSecond);
    }
}
