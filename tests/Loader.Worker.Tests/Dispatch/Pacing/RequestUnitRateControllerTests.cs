using Loader.Worker.Dispatch.Pacing;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Dispatch.Pacing;

public sealed class RequestUnitRateControllerTests
{
    private readonly ManualTimeProvider _time = new();

    /// <summary>Delivers <paramref name="rate"/> RU/s for <paramref name="seconds"/> seconds, a tenth of a second's worth at the start of each tenth.</summary>
    private void Deliver(RequestUnitRateController controller, double rate, double seconds)
    {
        for (var i = 0; i < seconds * 10; i++)
        {
            controller.Delivered(rate / 10);
            _time.Advance(TimeSpan.FromMilliseconds(100));
        }
    }

    [Fact]
    public void Does_not_limit_until_the_service_throttles_then_paces_just_under_what_got_through()
    {
        var controller = new RequestUnitRateController(_time, cap: null);
        Deliver(controller, 5_000, 3);
        Assert.True(double.IsPositiveInfinity(controller.Rate));

        controller.Throttled();

        Assert.Equal(5_000, controller.Ceiling!.Value, 1);
        Assert.Equal(4_850, controller.Rate, 1);
    }

    [Fact]
    public void Climbs_back_to_the_ceiling_within_two_seconds_then_probes_above_it_faster_and_faster()
    {
        var controller = new RequestUnitRateController(_time, cap: null);
        Deliver(controller, 5_000, 3);
        controller.Throttled();

        _time.Advance(TimeSpan.FromSeconds(1.6));
        Assert.InRange(controller.Rate, 4_990, 5_010);
        _time.Advance(TimeSpan.FromSeconds(10));
        var afterTen = controller.Rate;
        _time.Advance(TimeSpan.FromSeconds(10));
        var afterTwenty = controller.Rate;

        Assert.InRange(afterTen, 5_500, 5_800);
        Assert.True(afterTwenty - afterTen > afterTen - 5_000, "the probe accelerates while the service keeps accepting");
    }

    [Fact]
    public void Throttles_soon_after_a_change_are_ignored_and_one_episode_lowers_the_ceiling_by_at_most_fifteen_percent()
    {
        var controller = new RequestUnitRateController(_time, cap: null);
        Deliver(controller, 5_000, 3);
        controller.Throttled();
        var first = controller.Ceiling;

        Deliver(controller, 100, 1); // retries of the first episode took the pace: little got through
        controller.Throttled();       // within the cool-down
        Assert.Equal(first, controller.Ceiling);

        Deliver(controller, 100, 1.5);
        controller.Throttled();
        Assert.InRange(controller.Ceiling!.Value, 0.85 * 4_850 * 0.99, 4_850);
    }

    [Fact]
    public void Never_paces_above_the_configured_cap()
    {
        var controller = new RequestUnitRateController(_time, cap: 700);

        Assert.Equal(700, controller.Rate);
        Deliver(controller, 600, 3);
        controller.Throttled();
        _time.Advance(TimeSpan.FromMinutes(5));

        Assert.Equal(700, controller.Rate);
    }
}
