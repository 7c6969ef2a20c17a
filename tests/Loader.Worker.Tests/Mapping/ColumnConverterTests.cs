using System.Globalization;
using System.Text;
using Loader.Abstractions;
using Loader.Worker.Mapping;

namespace Loader.Worker.Tests.Mapping;

public sealed class ColumnConverterTests
{
    public static TheoryData<string> Cultures => ["", "en-US", "de-DE", "fr-FR", "sv-SE", "nb-NO", "fa-IR", "ar-SA"];

    [Theory]
    [MemberData(nameof(Cultures))]
    public void Numbers_read_as_the_culture_reads_them_whatever_path_they_take(string name)
    {
        var culture = name.Length == 0 ? CultureInfo.InvariantCulture : CultureInfo.GetCultureInfo(name);
        var converter = new ColumnConverter(culture);
        var separator = culture.NumberFormat.NumberDecimalSeparator;
        string[] texts = ["12", "-12", "+12", "007", $"-12{separator}5", $"12{separator}", $"{separator}5", "1\u00002", "1.5", "1,5", "-", ""];

        foreach (var text in texts)
        {
            var utf8 = Encoding.UTF8.GetBytes(text);
            var intExpected = int.TryParse(utf8, NumberStyles.Integer, culture, out var int32);
            Assert.True(intExpected == converter.TryConvert(PropertyName.Of("n"), ColumnType.Int32, utf8, out var asInt32), $"Int32 '{text}' in '{name}'");
            if (intExpected)
            {
                Assert.Equal(int32, asInt32.AsInt32());
            }

            var longExpected = long.TryParse(utf8, NumberStyles.Integer, culture, out var int64);
            Assert.True(longExpected == converter.TryConvert(PropertyName.Of("n"), ColumnType.Int64, utf8, out var asInt64), $"Int64 '{text}' in '{name}'");
            if (longExpected)
            {
                Assert.Equal(int64, asInt64.AsInt64());
            }

            var doubleExpected = double.TryParse(utf8, NumberStyles.Float, culture, out var number) && double.IsFinite(number);
            Assert.True(doubleExpected == converter.TryConvert(PropertyName.Of("n"), ColumnType.Double, utf8, out var asDouble), $"Double '{text}' in '{name}'");
            if (doubleExpected)
            {
                Assert.Equal(number, asDouble.AsDouble());
            }
        }
    }

    private static (bool Converted, object? Value, string Reason) Convert(string text, ColumnType type, string culture = "", bool allowGroupSeparators = false)
    {
        var converter = new ColumnConverter(culture.Length == 0 ? CultureInfo.InvariantCulture : CultureInfo.GetCultureInfo(culture), allowGroupSeparators);
        var utf8 = Encoding.UTF8.GetBytes(text);
        return converter.TryConvert(PropertyName.Of("x"), type, utf8, out var property)
            ? (true, property.Value, "")
            : (false, null, converter.Explain(type, utf8));
    }

    [Theory]
    [InlineData("3,14", "", ColumnType.Double)]
    [InlineData("1,5", "", ColumnType.Double)]
    [InlineData("12,34,5", "", ColumnType.Double)]
    [InlineData("1,000", "", ColumnType.Double)]
    [InlineData("1,000", "", ColumnType.Int32)]
    [InlineData("1,000", "", ColumnType.Int64)]
    [InlineData("3.14", "de-DE", ColumnType.Double)]
    [InlineData("1.000", "de-DE", ColumnType.Int32)]
    public void By_default_a_group_separator_in_a_number_is_refused_for_every_number_type_naming_the_culture(string text, string culture, ColumnType type)
    {
        var (converted, _, reason) = Convert(text, type, culture);

        Assert.False(converted);
        var (group, point, name) = culture == "de-DE" ? (".", ",", "culture de-DE") : (",", ".", "the invariant culture");
        Assert.Equal($"is not a valid {type} in {name}: it holds the group separator '{group}' (decimals are separated by '{point}'); Loader:Csv:AllowGroupSeparators accepts groups as in 1{group}234{point}5", reason);
    }

    [Theory]
    [InlineData("1,234,567", "", ColumnType.Int32, 1_234_567)]
    [InlineData("-1,234,567", "", ColumnType.Int64, -1_234_567L)]
    [InlineData("1,234.5", "", ColumnType.Double, 1234.5)]
    [InlineData("999", "", ColumnType.Int32, 999)]
    [InlineData("1.234,5", "de-DE", ColumnType.Double, 1234.5)]
    [InlineData("12,34,567", "hi-IN", ColumnType.Int32, 1_234_567)]
    public void When_allowed_group_separators_are_read_where_the_culture_groups_digits(string text, string culture, ColumnType type, object expected)
    {
        var (converted, value, reason) = Convert(text, type, culture, allowGroupSeparators: true);

        Assert.True(converted, reason);
        Assert.Equal(expected, value);
    }

    [Theory]
    [InlineData("3,14", "", ColumnType.Double)]
    [InlineData("12,34,5", "", ColumnType.Int32)]
    [InlineData("1,23,456", "", ColumnType.Int64)]
    [InlineData(",123", "", ColumnType.Int32)]
    [InlineData("1,234.5,6", "", ColumnType.Double)]
    [InlineData("3.14", "de-DE", ColumnType.Double)]
    public void When_allowed_a_group_separator_where_the_culture_groups_no_digits_is_still_refused(string text, string culture, ColumnType type)
    {
        var (converted, _, reason) = Convert(text, type, culture, allowGroupSeparators: true);

        Assert.False(converted);
        Assert.Contains("separates groups of digits there", reason, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("NaN", "is not a finite number: Double columns hold finite numbers only")]
    [InlineData("Infinity", "is not a finite number: Double columns hold finite numbers only")]
    [InlineData("-Infinity", "is not a finite number: Double columns hold finite numbers only")]
    [InlineData("1e309", "is too large for a Double (beyond ±1.8e308)")]
    [InlineData("-1e309", "is too large for a Double (beyond ±1.8e308)")]
    [InlineData("1e-400", "is too small for a Double: it would be stored as 0")]
    [InlineData("-2.5e-999", "is too small for a Double: it would be stored as 0")]
    public void A_double_that_is_not_finite_or_would_be_stored_as_something_else_is_refused(string text, string reason)
    {
        Assert.Equal((false, null, reason), Convert(text, ColumnType.Double));
    }

    [Theory]
    [InlineData("0", 0.0)]
    [InlineData("-0.000", 0.0)]
    [InlineData("0e10", 0.0)]
    [InlineData("1e-310", 1e-310)]
    [InlineData("1.7976931348623157e308", double.MaxValue)]
    public void Zero_subnormals_and_the_largest_double_are_kept(string text, double expected)
    {
        var (converted, value, _) = Convert(text, ColumnType.Double);

        Assert.True(converted);
        Assert.Equal(expected, value);
    }

    [Theory]
    [InlineData("2147483648", ColumnType.Int32, "is out of range for Int32")]
    [InlineData("-9223372036854775809", ColumnType.Int64, "is out of range for Int64")]
    [InlineData("1.5", ColumnType.Int32, "is not a valid Int32 in the invariant culture")]
    [InlineData("yes", ColumnType.Boolean, "is not a valid Boolean")]
    public void Other_refusals_say_what_the_value_is_not(string text, ColumnType type, string reason)
    {
        Assert.Equal((false, null, reason), Convert(text, type));
    }
}
