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

            var doubleExpected = double.TryParse(utf8, NumberStyles.Float | NumberStyles.AllowThousands, culture, out var number);
            Assert.True(doubleExpected == converter.TryConvert(PropertyName.Of("n"), ColumnType.Double, utf8, out var asDouble), $"Double '{text}' in '{name}'");
            if (doubleExpected)
            {
                Assert.Equal(number, asDouble.AsDouble());
            }
        }
    }
}
