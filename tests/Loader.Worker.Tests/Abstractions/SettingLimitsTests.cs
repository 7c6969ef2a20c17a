using System.Globalization;
using Loader.Abstractions;

namespace Loader.Worker.Tests.Abstractions;

/// <summary>The limits settings take from the runtime's timers are the runtime's: at them it works, a step past them it throws.</summary>
public sealed class SettingLimitsTests
{
    private static readonly TimeSpan s_longest = TimeSpan.Parse(SettingLimits.LongestTimer, CultureInfo.InvariantCulture);
    private static readonly TimeSpan s_shortest = TimeSpan.Parse(SettingLimits.OneMillisecond, CultureInfo.InvariantCulture);

    [Fact]
    public void The_longest_timer_is_what_PeriodicTimer_Task_Delay_and_CancelAfter_take_and_a_millisecond_more_is_not()
    {
        using (new PeriodicTimer(s_longest, TimeProvider.System))
        {
        }

        using var cancel = new CancellationTokenSource();
        cancel.CancelAfter(s_longest);
        _ = Task.Delay(s_longest, TimeProvider.System, cancel.Token);
        cancel.Cancel();

        var past = s_longest + TimeSpan.FromMilliseconds(1);
        Assert.Throws<ArgumentOutOfRangeException>(() => new PeriodicTimer(past, TimeProvider.System));
        Assert.Throws<ArgumentOutOfRangeException>(() => new CancellationTokenSource().CancelAfter(past));
        Assert.Throws<ArgumentOutOfRangeException>(() => { _ = Task.Delay(past, TimeProvider.System, CancellationToken.None); }); // thrown as it is called
    }

    [Fact]
    public void A_millisecond_is_the_shortest_period_PeriodicTimer_takes()
    {
        using (new PeriodicTimer(s_shortest, TimeProvider.System))
        {
        }

        Assert.Throws<ArgumentOutOfRangeException>(() => new PeriodicTimer(s_shortest - TimeSpan.FromTicks(1), TimeProvider.System));
    }

    [Fact]
    public void The_longest_duration_is_the_type_s()
    {
        Assert.Equal(TimeSpan.MaxValue, TimeSpan.Parse(SettingLimits.LongestDuration, CultureInfo.InvariantCulture));
    }
}
