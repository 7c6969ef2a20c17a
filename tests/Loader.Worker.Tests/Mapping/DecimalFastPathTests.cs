using System.Globalization;
using System.Text;
using Loader.Worker.Mapping;

namespace Loader.Worker.Tests.Mapping;

public sealed class DecimalFastPathTests
{
    /// <summary>Every generated text has the shape the fast path is for, or no digit at all: it must take all the first kind.</summary>
    [Fact]
    public void Agrees_bit_for_bit_with_the_full_parser_on_every_shape_it_accepts()
    {
        const int Texts = 200_000;
        var random = new Random(11);
        var accepted = 0;
        for (var i = 0; i < Texts; i++)
        {
            var integerDigits = random.Next(0, 9);
            var fractionDigits = random.Next(0, 16 - Math.Max(1, integerDigits));
            var text = (random.Next(3) == 0 ? "-" : "")
                + string.Concat(Enumerable.Range(0, integerDigits).Select(_ => (char)('0' + random.Next(10))))
                + (fractionDigits > 0 || random.Next(2) == 0 ? "." : "")
                + string.Concat(Enumerable.Range(0, fractionDigits).Select(_ => (char)('0' + random.Next(10))));
            var utf8 = Encoding.ASCII.GetBytes(text);
            var expected = double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var parsed);

            var fast = DecimalFastPath.TryParse(utf8, (byte)'.', out var value);

            if (fast)
            {
                accepted++;
                Assert.True(expected, $"fast path accepted '{text}', the full parser does not");
                Assert.Equal(BitConverter.DoubleToInt64Bits(parsed), BitConverter.DoubleToInt64Bits(value));
            }
            else
            {
                Assert.True(integerDigits + fractionDigits == 0, $"fast path refused '{text}'");
            }
        }

        // Texts without a digit ('', '-', '.', '-.') are about 1 in 100 of them: the fast path takes nearly all.
        Assert.InRange(accepted, Texts * 98 / 100, Texts - 1);
    }

    [Theory]
    [InlineData("1e5")]
    [InlineData(" 1.5")]
    [InlineData("1,000.5")]
    [InlineData("1234567890123456")]
    [InlineData("")]
    [InlineData("-")]
    [InlineData("1.2.3")]
    [InlineData("NaN")]
    public void Leaves_every_other_shape_to_the_full_parser(string text)
    {
        Assert.False(DecimalFastPath.TryParse(Encoding.ASCII.GetBytes(text), (byte)'.', out _));
    }

    [Fact]
    public void Uses_the_cultures_decimal_separator()
    {
        Assert.True(DecimalFastPath.TryParse("12,5"u8, (byte)',', out var value));
        Assert.Equal(12.5, value);
        Assert.False(DecimalFastPath.TryParse("12.5"u8, (byte)',', out _));
    }

    [Fact]
    public void Integers_agree_with_the_full_parser_on_every_shape_accepted()
    {
        const int Texts = 200_000;
        var random = new Random(12);
        var accepted = 0;
        for (var i = 0; i < Texts; i++)
        {
            var digits = random.Next(0, 21);
            var text = (random.Next(4) switch { 0 => "-", 1 => "+", _ => "" })
                + string.Concat(Enumerable.Range(0, digits).Select(_ => (char)('0' + random.Next(10))));
            var expected = long.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var parsed);

            var fast = DecimalFastPath.TryParseInteger(Encoding.ASCII.GetBytes(text), out var value);

            if (fast)
            {
                accepted++;
                Assert.True(expected, $"fast path accepted '{text}', the full parser does not");
                Assert.Equal(parsed, value);
            }
            else
            {
                Assert.True(digits is 0 or > 18, $"fast path refused '{text}'");
            }
        }

        // 1 to 18 digits are 18 of the 21 lengths drawn.
        Assert.InRange(accepted, Texts * 18 / 21 * 97 / 100, Texts * 18 / 21 * 103 / 100);
    }

    [Theory]
    [InlineData(" 12")]
    [InlineData("1,000")]
    [InlineData("12 ")]
    [InlineData("1.0")]
    [InlineData("-")]
    [InlineData("")]
    [InlineData("0x1F")]
    public void Integers_of_any_other_shape_go_to_the_full_parser(string text)
    {
        Assert.False(DecimalFastPath.TryParseInteger(Encoding.UTF8.GetBytes(text), out _));
    }

    [Fact]
    public void Without_an_ascii_separator_only_integral_numbers_are_read()
    {
        Assert.True(DecimalFastPath.TryParse("-12"u8, 0, out var integral));
        Assert.Equal(-12, integral);
        Assert.False(DecimalFastPath.TryParse("1\u00002"u8, 0, out _)); // a NUL byte is not a separator
    }
}
