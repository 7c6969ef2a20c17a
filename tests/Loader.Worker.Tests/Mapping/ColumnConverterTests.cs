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

    private static (bool Converted, object? Value, string Reason) ConvertDateTime(string text, string? zone = null)
    {
        var converter = new ColumnConverter(CultureInfo.InvariantCulture, timeZone: zone is null ? null : TimeZoneInfo.FindSystemTimeZoneById(zone));
        var utf8 = Encoding.UTF8.GetBytes(text);
        return converter.TryConvert(PropertyName.Of("t"), ColumnType.DateTime, utf8, out var property)
            ? (true, property.Value, "")
            : (false, null, converter.Explain(ColumnType.DateTime, utf8));
    }

    [Theory]
    [InlineData("05:00")]
    [InlineData("5pm")]
    [InlineData("23:59:59.5")]
    [InlineData("05:00Z")]
    [InlineData("23:00-05:00")]
    [InlineData("01:00+02:00")]
    public void A_time_without_a_date_is_refused_rather_than_given_today(string text)
    {
        Assert.Equal((false, null, "is a time without a date: DateTime columns need a date"), ConvertDateTime(text));
        Assert.Equal((false, null, "is a time without a date: DateTime columns need a date"), ConvertDateTime(text, "Europe/Berlin"));
    }

    [Theory]
    [InlineData("0001-01-01", "0001-01-01T00:00:00")]
    [InlineData("0001-01-01 05:00", "0001-01-01T05:00:00")]
    [InlineData("0001-01-02T04:00Z", "0001-01-02T04:00:00")]
    [InlineData("2024-06-01", "2024-06-01T00:00:00")]
    public void A_date_is_kept_even_on_the_first_days_a_datetime_holds(string text, string utc)
    {
        Assert.Equal((true, (object)DateTime.SpecifyKind(DateTime.Parse(utc, CultureInfo.InvariantCulture), DateTimeKind.Utc), ""), ConvertDateTime(text));
    }

    [Theory]
    [InlineData(null, "2024-06-01 12:00", "2024-06-01T12:00:00")]
    [InlineData("UTC", "2024-06-01 12:00", "2024-06-01T12:00:00")]
    [InlineData("Europe/Berlin", "2024-06-01 12:00", "2024-06-01T10:00:00")] // summer: +02:00
    [InlineData("Europe/Berlin", "2024-01-15 12:00", "2024-01-15T11:00:00")] // winter: +01:00
    [InlineData("W. Europe Standard Time", "2024-06-01 12:00", "2024-06-01T10:00:00")]
    [InlineData("America/New_York", "2024-06-01", "2024-06-01T04:00:00")]
    [InlineData("Europe/Berlin", "2024-06-01T12:00:00Z", "2024-06-01T12:00:00")] // a zone of its own is kept
    [InlineData("Europe/Berlin", "2024-06-01T12:00:00+05:00", "2024-06-01T07:00:00")]
    [InlineData("Europe/Berlin", "2024-10-27 02:30", "2024-10-27T00:30:00")] // twice that night: the first, at +02:00
    [InlineData("Europe/Berlin", "2024-10-27 03:30", "2024-10-27T02:30:00")]
    public void A_datetime_without_a_zone_is_in_the_configured_zone_and_stored_in_utc(string? zone, string text, string utc)
    {
        var (converted, value, reason) = ConvertDateTime(text, zone);

        Assert.True(converted, reason);
        var stored = Assert.IsType<DateTime>(value);
        Assert.Equal(DateTimeKind.Utc, stored.Kind);
        Assert.Equal(DateTime.SpecifyKind(DateTime.Parse(utc, CultureInfo.InvariantCulture), DateTimeKind.Utc), stored);
    }

    [Theory]
    [InlineData("Europe/Berlin", "2024-03-31 02:30")]
    [InlineData("America/New_York", "2024-03-10 02:00")]
    public void A_local_time_the_zone_skips_is_refused_naming_the_zone_and_the_setting(string zone, string text)
    {
        Assert.Equal((false, null, $"does not exist in time zone {zone} (Loader:Csv:TimeZone): the clocks go forward past it that day"), ConvertDateTime(text, zone));
    }

    [Fact]
    public void A_local_date_that_would_be_before_the_first_datetime_in_utc_is_refused()
    {
        Assert.Equal((false, null, "is out of range for a DateTime in time zone Asia/Tokyo (Loader:Csv:TimeZone)"), ConvertDateTime("0001-01-01", "Asia/Tokyo"));
    }


    [Theory]
    [InlineData("{\"a\":1,\"b\":[true,null]}")]
    [InlineData("[1,\"two\"]")]
    [InlineData("-2.5e3")]
    [InlineData("\"text\"")]
    [InlineData("true")]
    [InlineData("false")]
    [InlineData("null")]
    [InlineData(" [ 1 ] ")]
    public void A_json_cell_that_is_one_value_is_kept_as_its_text(string text)
    {
        Assert.True(new ColumnConverter(CultureInfo.InvariantCulture).TryConvert(PropertyName.Of("j"), ColumnType.Json, Encoding.UTF8.GetBytes(text), out var property));

        Assert.Equal((ColumnType.Json, text), (property.Type, property.AsJson()));
    }

    [Theory]
    [InlineData("{\"a\":1", "is not a JSON value: '1' is an invalid end of a number. Expected a delimiter, at character 7")]
    [InlineData("[1,2,]", "is not a JSON value: The JSON array contains a trailing comma at the end which is not supported in this mode, at character 6")]
    [InlineData("tru", "is not a JSON value: 'tru' is an invalid JSON literal. Expected the literal 'true', at character 4")]
    [InlineData("1 2", "is not a JSON value: '2' is invalid after a single JSON value. Expected end of data, at character 3")]
    [InlineData("{\"city\":\"Zürich\" x}", "is not a JSON value: 'x' is invalid after a value. Expected either ',', '}', or ']', at character 18")]
    [InlineData("{\"a\":\n  [1,}", "is not a JSON value: '}' is an invalid start of a value, at character 12")]
    [InlineData("hello", "is not a JSON value: 'h' is an invalid start of a value, at character 1")]
    public void A_json_cell_that_does_not_parse_is_refused_naming_the_reason_and_the_character(string text, string explanation)
    {
        var converter = new ColumnConverter(CultureInfo.InvariantCulture);
        var utf8 = Encoding.UTF8.GetBytes(text);

        Assert.False(converter.TryConvert(PropertyName.Of("j"), ColumnType.Json, utf8, out _));
        Assert.Equal(explanation, converter.Explain(ColumnType.Json, utf8));
    }
}
