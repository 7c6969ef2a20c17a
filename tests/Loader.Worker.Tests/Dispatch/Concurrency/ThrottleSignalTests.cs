using Loader.Worker.Dispatch.Concurrency;
using Microsoft.Extensions.Time.Testing;

namespace Loader.Worker.Tests.Dispatch.Concurrency;

public sealed class ThrottleSignalTests
{
    private readonly FakeTimeProvider _time = new();

    [Fact]
    public void One_partition_throttled_again_and_again_is_a_hot_partition()
    {
        var signal = new ThrottleSignal(_time, TimeSpan.FromSeconds(5));

        Assert.All(Enumerable.Range(0, 10), _ => Assert.False(signal.IsServiceWide("hot")));
    }

    [Fact]
    public void Two_partitions_throttled_within_the_window_are_the_service_at_its_limit()
    {
        var signal = new ThrottleSignal(_time, TimeSpan.FromSeconds(5));

        Assert.False(signal.IsServiceWide("a"));
        _time.Advance(TimeSpan.FromSeconds(4));
        Assert.True(signal.IsServiceWide("b"));
    }

    [Fact]
    public void Throttles_older_than_the_window_are_forgotten()
    {
        var signal = new ThrottleSignal(_time, TimeSpan.FromSeconds(5));

        signal.IsServiceWide("a");
        _time.Advance(TimeSpan.FromSeconds(6));

        Assert.False(signal.IsServiceWide("b"));
    }
}
