using System.Buffers;
using System.Globalization;
using System.Text;
using Loader.Abstractions;

namespace Loader.Worker.Mapping;

/// <summary>Parses a cell's UTF-8 text as its column type, in the configured culture, without making a string first.</summary>
public sealed class ColumnConverter(CultureInfo culture)
{
    private const NumberStyles IntegerStyle = NumberStyles.Integer;
    private const NumberStyles FloatStyle = NumberStyles.Float | NumberStyles.AllowThousands;

    // The culture's decimal separator when it is one ASCII character ('.' or ','); 0 when it is not, and then the
    // decimal fast path reads integral numbers only.
    private readonly byte _decimalSeparator = culture.NumberFormat.NumberDecimalSeparator is [var separator] && separator < 128 ? (byte)separator : (byte)0;

    // The fast paths read ASCII signs, so they apply only where the culture's own parser does too: '+', and '-'
    // or U+2212 (for which .NET also reads '-'; sv-SE, nb-NO). Elsewhere (fa-IR, ar-SA mark signs with
    // direction marks) every number goes to the full parser.
    private readonly bool _fastPaths = culture.NumberFormat is { NegativeSign: "-" or "\u2212", PositiveSign: "+" };

    /// <summary>Converts <paramref name="utf8"/> to a non-string type; false when it is not a valid value of the type.</summary>
    public bool TryConvert(PropertyName name, ColumnType type, ReadOnlySpan<byte> utf8, out EntityProperty property)
    {
        switch (type)
        {
            case ColumnType.Int32 when _fastPaths && DecimalFastPath.TryParseInteger(utf8, out var fast) && fast is >= int.MinValue and <= int.MaxValue:
                property = EntityProperty.FromInt32(name, (int)fast);
                return true;
            case ColumnType.Int32 when int.TryParse(utf8, IntegerStyle, culture, out var int32):
                property = EntityProperty.FromInt32(name, int32);
                return true;
            case ColumnType.Int64 when _fastPaths && DecimalFastPath.TryParseInteger(utf8, out var fast):
                property = EntityProperty.FromInt64(name, fast);
                return true;
            case ColumnType.Int64 when long.TryParse(utf8, IntegerStyle, culture, out var int64):
                property = EntityProperty.FromInt64(name, int64);
                return true;
            case ColumnType.Double when (_fastPaths && DecimalFastPath.TryParse(utf8, _decimalSeparator, out var number))
                || (double.TryParse(utf8, FloatStyle, culture, out number) && (double.IsFinite(number) || NamesInfinity(utf8))):
                property = EntityProperty.FromDouble(name, number);
                return true;
            case ColumnType.Boolean when TryParseBoolean(utf8, out var flag):
                property = EntityProperty.FromBoolean(name, flag);
                return true;
            case ColumnType.DateTime when TryParseDateTime(utf8, out var dateTime):
                property = EntityProperty.FromDateTime(name, dateTime);
                return true;
            case ColumnType.Guid when Guid.TryParse(Encoding.UTF8.GetString(utf8), out var guid):
                property = EntityProperty.FromGuid(name, guid);
                return true;
            default:
                property = default;
                return false;
        }
    }

    private bool TryParseDateTime(ReadOnlySpan<byte> utf8, out DateTime value)
    {
        // Dates are short; parse from a stack copy in UTF-16, as DateTime has no UTF-8 parser.
        Span<char> chars = stackalloc char[64];
        if (utf8.Length > chars.Length || !Encoding.UTF8.TryGetChars(utf8, chars, out var written))
        {
            value = default;
            return false;
        }

        var parsed = DateTime.TryParse(chars[..written], culture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal, out value);
        value = DateTime.SpecifyKind(value, DateTimeKind.Utc);
        return parsed;
    }

    /// <summary>
    /// .NET reads a number beyond ±1.8e308 as infinity; only a value that says infinity may be one, otherwise the
    /// input held a number the type cannot represent.
    /// </summary>
    private bool NamesInfinity(ReadOnlySpan<byte> utf8)
    {
        var text = Encoding.UTF8.GetString(utf8).Trim();
        return text.EndsWith(culture.NumberFormat.PositiveInfinitySymbol, StringComparison.OrdinalIgnoreCase)
            || text.EndsWith("Infinity", StringComparison.OrdinalIgnoreCase);
    }

    private static readonly SearchValues<byte> s_blank = SearchValues.Create(" \t"u8);

    private static bool TryParseBoolean(ReadOnlySpan<byte> utf8, out bool value)
    {
        var start = utf8.IndexOfAnyExcept(s_blank);
        var trimmed = start < 0 ? [] : utf8[start..(utf8.LastIndexOfAnyExcept(s_blank) + 1)];
        if (trimmed.SequenceEqual("1"u8) || System.Text.Ascii.EqualsIgnoreCase(trimmed, "true"u8))
        {
            value = true;
            return true;
        }

        value = false;
        return trimmed.SequenceEqual("0"u8) || System.Text.Ascii.EqualsIgnoreCase(trimmed, "false"u8);
    }
}
