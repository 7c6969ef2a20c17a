using Loader.ThrottlingSimulator;
using Microsoft.Extensions.Time.Testing;

namespace Loader.Worker.Tests.Simulator;

public sealed class TokenBucketTests
{
    private readonly FakeTimeProvider _clock = new();

    [Fact]
    public void Starts_full()
    {
        var bucket = new TokenBucket(ratePerSecond: 1000, capacity: 2000, _clock);

        Assert.Equal(2000, bucket.Available);
        Assert.Equal(0, bucket.MillisecondsUntilAvailable(2000));
    }

    [Fact]
    public void Refills_at_its_rate_and_no_further_than_its_capacity()
    {
        var bucket = new TokenBucket(ratePerSecond: 1000, capacity: 1000, _clock);
        bucket.Take(1000);
        Assert.Equal(0, bucket.Available);

        _clock.Advance(TimeSpan.FromMilliseconds(250));
        Assert.Equal(250, bucket.Available, precision: 9);

        _clock.Advance(TimeSpan.FromMilliseconds(500));
        Assert.Equal(750, bucket.Available, precision: 9);

        _clock.Advance(TimeSpan.FromSeconds(10));
        Assert.Equal(1000, bucket.Available);
    }

    [Fact]
    public void Saves_up_to_the_burst_and_spends_it_at_once()
    {
        // Two seconds' worth of 500 RU/s.
        var bucket = new TokenBucket(ratePerSecond: 500, capacity: 1000, _clock);
        bucket.Take(1000);
        _clock.Advance(TimeSpan.FromSeconds(5));

        Assert.Equal(0, bucket.MillisecondsUntilAvailable(1000));
        bucket.Take(1000);
        Assert.Equal(400, bucket.MillisecondsUntilAvailable(200), precision: 9);
    }

    [Fact]
    public void Says_how_long_until_a_cost_fits()
    {
        var bucket = new TokenBucket(ratePerSecond: 200, capacity: 200, _clock);
        bucket.Take(150);

        Assert.Equal(0, bucket.MillisecondsUntilAvailable(50));
        Assert.Equal(250, bucket.MillisecondsUntilAvailable(100), precision: 9);

        _clock.Advance(TimeSpan.FromMilliseconds(100));
        Assert.Equal(150, bucket.MillisecondsUntilAvailable(100), precision: 9);

        _clock.Advance(TimeSpan.FromMilliseconds(150));
        Assert.Equal(0, bucket.MillisecondsUntilAvailable(100));
    }

    [Fact]
    public void A_cost_above_the_capacity_waits_for_a_full_bucket_then_leaves_it_in_debt()
    {
        var bucket = new TokenBucket(ratePerSecond: 100, capacity: 100, _clock);
        bucket.Take(40);

        // It can never hold 300, so the wait is for a full bucket: 40 RU at 100 RU/s.
        Assert.Equal(400, bucket.MillisecondsUntilAvailable(300), precision: 9);
        _clock.Advance(TimeSpan.FromMilliseconds(400));
        Assert.Equal(0, bucket.MillisecondsUntilAvailable(300));

        bucket.Take(300);
        Assert.Equal(-200, bucket.Available, precision: 9);
        Assert.Equal(2100, bucket.MillisecondsUntilAvailable(10), precision: 9);
    }

    [Fact]
    public void Fill_restores_the_capacity()
    {
        var bucket = new TokenBucket(ratePerSecond: 10, capacity: 30, _clock);
        bucket.Take(25);

        bucket.Fill();

        Assert.Equal(30, bucket.Available);
    }
}
