using Loader.Worker.Records;

namespace Loader.Worker.Tests.Records;

/// <summary>A number's text is held as a double only when the double gives back the same value.</summary>
public sealed class ExactDoubleTests
{
    [Theory]
    [InlineData("1", 1.0)]
    [InlineData("-0.0", 0.0)]
    [InlineData("0.1", 0.1)]
    [InlineData("1.10", 1.1)]
    [InlineData("1E-5", 0.00001)]
    [InlineData("1e22", 1e22)]
    [InlineData("100000000000000000000000000000", 1e29)]
    [InlineData("0.30000000000000004", 0.30000000000000004)]
    [InlineData("9007199254740992", 9007199254740992.0)]
    [InlineData("123456789012345.6", 123456789012345.6)]
    public void A_number_a_double_gives_back_is_held(string text, double expected)
    {
        Assert.True(ExactDouble.TryParse(text, out var value));
        Assert.Equal(expected, value);
    }

    [Theory]
    [InlineData("12345678901234567890123")] // 23 digits: the double keeps 17
    [InlineData("9007199254740993")] // 2^53 + 1: the nearest double is 2^53
    [InlineData("3.14159265358979323846")]
    [InlineData("123456789012345678")]
    [InlineData("1e400")] // past the largest double
    [InlineData("-1e400")]
    public void A_number_a_double_would_round_or_cannot_hold_is_refused(string text)
    {
        Assert.False(ExactDouble.TryParse(text, out _));
    }
}
