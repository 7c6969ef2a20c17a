using System.ComponentModel.DataAnnotations;
using Loader.Abstractions;

namespace Loader.Worker.Tests.Abstractions;

/// <summary>Ranges as options declare them, read back in the setting's own type, worded and checked.</summary>
public sealed class SettingRangeTests
{
    private sealed class Options
    {
        [Range(1, 100)]
        public int Count { get; set; } = 100;

        [Range(0d, double.MaxValue, MinimumIsExclusive = true)]
        public double? Rate { get; set; }

        [Range(typeof(long), "0", "9223372036854775807")]
        public long Rows { get; set; }

        [Range(typeof(TimeSpan), SettingLimits.OneMillisecond, SettingLimits.LongestTimer)]
        public TimeSpan Interval { get; set; } = TimeSpan.FromSeconds(5);

        [Range(typeof(decimal), "0", "79228162514264337593543950335")]
        public decimal Price { get; set; }

        public ConsoleColor Color { get; set; }

        public string Text { get; set; } = "";
    }

    private static SettingRange RangeOf(string property) => SettingRange.Of(typeof(Options).GetProperty(property)!)!;

    [Fact]
    public void Limits_are_read_in_the_setting_s_type_and_worded_as_a_reader_looks_them_up()
    {
        Assert.Equal((1, 100), ((int)RangeOf("Count").Minimum, (int)RangeOf("Count").Maximum));
        Assert.Equal("1 to 100", RangeOf("Count").Text);
        Assert.Equal("more than 0", RangeOf("Rate").Text);
        Assert.Equal("0 or more", RangeOf("Rows").Text);
        Assert.Equal("00:00:00.001 to 49.17:02:47.294", RangeOf("Interval").Text);
        Assert.Equal(TimeSpan.FromMilliseconds(uint.MaxValue - 1), RangeOf("Interval").Maximum);
        Assert.Equal("0 or more", RangeOf("Price").Text);
        Assert.Null(SettingRange.Of(typeof(Options).GetProperty("Text")!));
    }

    [Fact]
    public void Values_at_the_limits_pass_and_one_step_past_them_do_not()
    {
        Assert.True(RangeOf("Count").Contains(1) && RangeOf("Count").Contains(100));
        Assert.False(RangeOf("Count").Contains(0) || RangeOf("Count").Contains(101));
        Assert.True(RangeOf("Rate").Contains(double.Epsilon) && RangeOf("Rate").Contains(double.MaxValue) && RangeOf("Rate").Contains(null));
        Assert.False(RangeOf("Rate").Contains(0d) || RangeOf("Rate").Contains(double.NaN) || RangeOf("Rate").Contains(double.PositiveInfinity));
        var interval = RangeOf("Interval");
        Assert.True(interval.Contains(TimeSpan.FromMilliseconds(1)) && interval.Contains(TimeSpan.FromMilliseconds(uint.MaxValue - 1)));
        Assert.False(interval.Contains(TimeSpan.FromMilliseconds(1) - TimeSpan.FromTicks(1)) || interval.Contains(TimeSpan.FromMilliseconds(uint.MaxValue - 1) + TimeSpan.FromTicks(1)));
    }

    [Fact]
    public void Bounds_names_each_setting_out_of_range_or_not_a_choice_with_its_range_and_value()
    {
        var failures = new SettingFailures();

        failures.Bounds("Loader:Test", new Options { Count = 0, Rate = -1, Rows = -1, Interval = TimeSpan.FromDays(60), Price = -0.5m, Color = (ConsoleColor)99, Text = "anything" });

        Assert.Equal(
            [
                "Loader:Test:Count must be between 1 and 100, was 0.",
                "Loader:Test:Rate must be more than 0, was -1.",
                "Loader:Test:Rows must be at least 0, was -1.",
                "Loader:Test:Interval must be between 00:00:00.001 and 49.17:02:47.294, was 60.00:00:00.",
                "Loader:Test:Price must be at least 0, was -0.5.",
                "Loader:Test:Color '99' is not one of Black, DarkBlue, DarkGreen, DarkCyan, DarkRed, DarkMagenta, DarkYellow, Gray, DarkGray, Blue, Green, Cyan, Red, Magenta, Yellow, White.",
            ],
            failures.Messages);
    }

    [Fact]
    public void Settings_in_range_pass()
    {
        var failures = new SettingFailures();

        failures.Bounds("Loader:Test", new Options());

        Assert.Empty(failures.Messages);
    }
}
