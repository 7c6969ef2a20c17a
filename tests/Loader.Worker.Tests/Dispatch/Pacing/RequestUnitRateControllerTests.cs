using Loader.Worker.Dispatch.Pacing;
using Microsoft.Extensions.Time.Testing;

namespace Loader.Worker.Tests.Dispatch.Pacing;

public sealed class RequestUnitRateControllerTests
{
    private readonly FakeTimeProvider _time = new();

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
        Assert.Equal(4_800, controller.Rate, 1);
    }

    [Fact]
    public void Measures_the_ceiling_over_the_last_seconds_so_a_slow_start_does_not_read_as_a_low_budget()
    {
        var controller = new RequestUnitRateController(_time, cap: null);
        Deliver(controller, 500, 10); // the loader ramping up, far below the budget
        Deliver(controller, 5_000, 3);

        controller.Throttled();

        Assert.Equal(5_000, controller.Ceiling!.Value, 1);
    }

    [Fact]
    public void A_throttle_in_the_first_second_sets_a_provisional_ceiling_the_pace_climbs_past_until_a_later_throttle_measures_the_rate()
    {
        var controller = new RequestUnitRateController(_time, cap: null);
        Deliver(controller, 30_000, 0.1); // a service's burst allowance spent in a tenth of a second

        controller.Throttled();
        var provisional = controller.Rate;
        Assert.Equal(0.96 * 3_000, provisional, 1);

        _time.Advance(TimeSpan.FromSeconds(10));
        Assert.InRange(controller.Rate, provisional * 1.5, provisional * 1.7); // no hold: 5% a second

        Deliver(controller, 5_000, 3);
        controller.Throttled();
        Assert.Equal(5_000, controller.Ceiling!.Value, 1);
        _time.Advance(TimeSpan.FromSeconds(5));
        Assert.Equal(4_900, controller.Rate, 1); // measured: climbs to just under the ceiling and holds
    }

    [Fact]
    public void Climbs_back_to_just_under_the_ceiling_within_two_seconds_holds_there_then_probes_above_it_faster_and_faster()
    {
        var controller = new RequestUnitRateController(_time, cap: null);
        Deliver(controller, 5_000, 3);
        controller.Throttled();

        _time.Advance(TimeSpan.FromSeconds(1.1));
        Assert.Equal(4_900, controller.Rate, 1);
        _time.Advance(TimeSpan.FromSeconds(28));
        Assert.Equal(4_900, controller.Rate, 1);
        _time.Advance(TimeSpan.FromSeconds(10));
        var afterTen = controller.Rate;
        _time.Advance(TimeSpan.FromSeconds(10));
        var afterTwenty = controller.Rate;

        Assert.InRange(afterTen, 4_950, 5_200);
        Assert.True(afterTwenty - afterTen > afterTen - 4_900, "the probe accelerates while the service keeps accepting");
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

        Deliver(controller, 100, 1.5); // the window now holds mostly retries' crowding
        controller.Throttled();
        Assert.InRange(controller.Ceiling!.Value, 0.85 * 4_800 * 0.99, 4_900);
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
