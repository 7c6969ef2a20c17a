using Loader.Worker.Reporting;
using Microsoft.Extensions.Time.Testing;

namespace Loader.Worker.Tests.Reporting;

public sealed class BusyClockTests
{
    [Fact]
    public void Overlapping_holders_count_the_time_they_share_once_and_time_with_none_not_at_all()
    {
        var time = new FakeTimeProvider();
        var clock = new BusyClock(time);

        clock.Enter();
        time.Advance(TimeSpan.FromSeconds(1));
        clock.Enter(); // a second holder while the first is in
        time.Advance(TimeSpan.FromSeconds(2));
        clock.Leave();
        time.Advance(TimeSpan.FromSeconds(1));
        clock.Leave();
        time.Advance(TimeSpan.FromSeconds(5)); // none in
        clock.Enter();
        time.Advance(TimeSpan.FromSeconds(0.5));

        Assert.Equal(TimeSpan.FromSeconds(4.5), clock.Busy); // 4 s, and the 0.5 s of the holder still in
        clock.Leave();
        clock.Leave(); // one leave too many changes nothing
        time.Advance(TimeSpan.FromSeconds(1));
        Assert.Equal(TimeSpan.FromSeconds(4.5), clock.Busy);
    }
}
