using System.Buffers;
using System.Globalization;
using System.Text;
using System.Text.Json;
using Loader.Abstractions;

namespace Loader.Worker.Mapping;

/// <summary>
/// Parses a cell's UTF-8 text as its column type, in the configured culture, without making a string first. Numbers
/// follow one rule for Int32, Int64 and Double: digits with an optional sign and (Double) decimals and exponent, in the
/// culture's notation; group separators only when <paramref name="allowGroupSeparators"/> is set, and then only where
/// the culture groups digits (1,234.5 — never 3,14, which another culture's decimal comma would be); a Double must be
/// finite (no NaN or infinity: neither JSON in Cosmos DB nor a number in any other store holds them the same way) and
/// must not round to zero from a value that is not zero (1e-400). A DateTime must have a date (a time alone is
/// refused, not given today's); one that names no zone is in <paramref name="timeZone"/> (UTC when null), and every
/// DateTime is stored in UTC. A Json cell must be one JSON value, kept as its text.
/// </summary>
internal sealed class ColumnConverter(CultureInfo culture, bool allowGroupSeparators = false, TimeZoneInfo? timeZone = null)
{
    private const NumberStyles IntegerStyle = NumberStyles.Integer;
    private const NumberStyles FloatStyle = NumberStyles.Float;

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
            case ColumnType.Int32 when TryParseInteger(utf8, out var whole) && whole is >= int.MinValue and <= int.MaxValue:
                property = EntityProperty.FromInt32(name, (int)whole);
                return true;
            case ColumnType.Int64 when _fastPaths && DecimalFastPath.TryParseInteger(utf8, out var fast):
                property = EntityProperty.FromInt64(name, fast);
                return true;
            case ColumnType.Int64 when TryParseInteger(utf8, out var int64):
                property = EntityProperty.FromInt64(name, int64);
                return true;
            case ColumnType.Double when (_fastPaths && DecimalFastPath.TryParse(utf8, _decimalSeparator, out var number)) || TryParseDouble(utf8, out number):
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
            case ColumnType.Json when JsonProblem(utf8) is null:
                property = EntityProperty.FromJson(name, Encoding.UTF8.GetString(utf8));
                return true;
            default:
                property = default;
                return false;
        }
    }

    private readonly TimeZoneInfo? _zone = timeZone is null || timeZone.HasSameRules(TimeZoneInfo.Utc) ? null : timeZone;

    private bool TryParseDateTime(ReadOnlySpan<byte> utf8, out DateTime value) => ParseDateTime(utf8, out value) == DateTimeParse.Parsed;

    /// <summary>What a DateTime cell holds: a time in UTC, or why it is none.</summary>
    private DateTimeParse ParseDateTime(ReadOnlySpan<byte> utf8, out DateTime value)
    {
        // Dates are short; parse from a stack copy in UTF-16, as DateTime has no UTF-8 parser.
        Span<char> chars = stackalloc char[64];
        value = default;
        if (utf8.Length > chars.Length || !Encoding.UTF8.TryGetChars(utf8, chars, out var written))
        {
            return DateTimeParse.Invalid;
        }

        // A value with a zone comes back in UTC, one without as it was written (Unspecified); a time alone on 0001-01-01
        // rather than today, which the check below tells from a date written so.
        var text = chars[..written];
        if (!DateTime.TryParse(text, culture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.NoCurrentDateDefault, out var parsed))
        {
            return DateTime.TryParse(text, culture, DateTimeStyles.AdjustToUniversal, out _) ? DateTimeParse.TimeAlone : DateTimeParse.Invalid;
        }

        if (parsed is { Year: 1, Month: 1, Day: <= 2 }
            && (!DateTime.TryParse(text, culture, DateTimeStyles.AdjustToUniversal, out var dated) || dated != parsed))
        {
            return DateTimeParse.TimeAlone;
        }

        if (parsed.Kind == DateTimeKind.Utc || _zone is null)
        {
            value = DateTime.SpecifyKind(parsed, DateTimeKind.Utc);
            return DateTimeParse.Parsed;
        }

        if (_zone.IsInvalidTime(parsed))
        {
            return DateTimeParse.Skipped;
        }

        // Twice on the day the clocks go back: the first, whose offset is the larger (daylight-saving time).
        var offset = _zone.IsAmbiguousTime(parsed) ? _zone.GetAmbiguousTimeOffsets(parsed).Max() : _zone.GetUtcOffset(parsed);
        var ticks = parsed.Ticks - offset.Ticks;
        if (ticks < DateTime.MinValue.Ticks || ticks > DateTime.MaxValue.Ticks)
        {
            return DateTimeParse.OutOfRange;
        }

        value = new DateTime(ticks, DateTimeKind.Utc);
        return DateTimeParse.Parsed;
    }

    private enum DateTimeParse
    {
        Parsed,
        Invalid,
        TimeAlone,
        Skipped,
        OutOfRange,
    }

    /// <summary>Why <paramref name="utf8"/> is not a valid value of <paramref name="type"/>: the message of a reject, naming the culture where it matters.</summary>
    public string Explain(ColumnType type, ReadOnlySpan<byte> utf8)
    {
        var text = Encoding.UTF8.GetString(utf8);
        var format = culture.NumberFormat;
        var inCulture = $"in {CultureName}";
        if (type is ColumnType.Int32 or ColumnType.Int64 or ColumnType.Double && GroupedDigits.HasSeparator(text, format))
        {
            var example = Invariant($"1{format.NumberGroupSeparator}234{format.NumberDecimalSeparator}5");
            return allowGroupSeparators
                ? $"is not a valid {type} {inCulture}: '{format.NumberGroupSeparator}' separates groups of digits there, as in {example}, and stands elsewhere here"
                : $"is not a valid {type} {inCulture}: it holds the group separator '{format.NumberGroupSeparator}' (decimals are separated by '{format.NumberDecimalSeparator}'); Loader:Csv:AllowGroupSeparators accepts groups as in {example}";
        }

        if (type == ColumnType.Double && double.TryParse(Plain(text), FloatStyle, culture, out var number))
        {
            return double.IsNaN(number) || (double.IsInfinity(number) && !HasDigit(text)) ? "is not a finite number: Double columns hold finite numbers only"
                : double.IsInfinity(number) ? "is too large for a Double (beyond ±1.8e308)"
                : "is too small for a Double: it would be stored as 0";
        }

        if (type is ColumnType.Int32 or ColumnType.Int64 && System.Numerics.BigInteger.TryParse(Plain(text), IntegerStyle, culture, out _))
        {
            return $"is out of range for {type}";
        }

        if (type == ColumnType.DateTime && ParseDateTime(utf8, out _) is var parse && parse != DateTimeParse.Invalid)
        {
            return parse switch
            {
                DateTimeParse.TimeAlone => "is a time without a date: DateTime columns need a date",
                DateTimeParse.Skipped => $"does not exist in time zone {_zone!.Id} (Loader:Csv:TimeZone): the clocks go forward past it that day",
                _ => $"is out of range for a DateTime in time zone {_zone!.Id} (Loader:Csv:TimeZone)",
            };
        }

        if (type == ColumnType.Json && JsonProblem(utf8) is { } problem)
        {
            return $"is not a JSON value: {problem}";
        }

        return type is ColumnType.Int32 or ColumnType.Int64 or ColumnType.Double or ColumnType.DateTime
            ? $"is not a valid {type} {inCulture}"
            : $"is not a valid {type}";
    }

    /// <summary>
    /// Why the cell is not one JSON value (System.Text.Json's reason and the character it stopped at, counted from 1 in
    /// the cell), or null when it is one: an object, array, number, string, true, false or null, nothing after it.
    /// </summary>
    private static string? JsonProblem(ReadOnlySpan<byte> utf8)
    {
        var reader = new Utf8JsonReader(utf8);
        try
        {
            while (reader.Read())
            {
            }

            return null;
        }
        catch (JsonException exception)
        {
            var reason = exception.Message;
            var cut = reason.IndexOf(" LineNumber:", StringComparison.Ordinal);
            // The reader's advice on its own options is not the user's to take.
            reason = (cut < 0 ? reason : reason[..cut]).Replace(" Change the reader options.", "", StringComparison.Ordinal).TrimEnd('.', ' ');
            return Invariant($"{reason}, at character {CharacterPosition(utf8, exception.LineNumber ?? 0, exception.BytePositionInLine ?? 0)}");
        }
    }

    /// <summary>The 1-based character in the cell of a reader's line and byte in that line.</summary>
    private static long CharacterPosition(ReadOnlySpan<byte> utf8, long line, long byteInLine)
    {
        var start = 0;
        for (var i = 0; i < line && start < utf8.Length; i++)
        {
            var next = utf8[start..].IndexOf((byte)'\n');
            start = next < 0 ? utf8.Length : start + next + 1;
        }

        var end = (int)Math.Min(utf8.Length, start + byteInLine);
        return Encoding.UTF8.GetCharCount(utf8[..end]) + 1;
    }

    private string CultureName => culture.Name.Length == 0 ? "the invariant culture" : $"culture {culture.Name}";

    private bool TryParseInteger(ReadOnlySpan<byte> utf8, out long value)
    {
        if (long.TryParse(utf8, IntegerStyle, culture, out value))
        {
            return true;
        }

        return allowGroupSeparators && GroupedDigits.Strip(Encoding.UTF8.GetString(utf8), culture.NumberFormat) is { } plain
            && long.TryParse(plain, IntegerStyle, culture, out value);
    }

    /// <summary>A finite Double, and zero only when the text says zero (1e-400 underflows to 0 in .NET: refused).</summary>
    private bool TryParseDouble(ReadOnlySpan<byte> utf8, out double value)
    {
        if (!double.TryParse(utf8, FloatStyle, culture, out value))
        {
            if (!allowGroupSeparators || GroupedDigits.Strip(Encoding.UTF8.GetString(utf8), culture.NumberFormat) is not { } plain
                || !double.TryParse(plain, FloatStyle, culture, out value))
            {
                return false;
            }
        }

        return double.IsFinite(value) && (value != 0 || !HasNonZeroMantissa(utf8));
    }

    /// <summary>The text with valid grouping taken out when grouping is allowed: what the explanation parses.</summary>
    private string Plain(string text) =>
        allowGroupSeparators && GroupedDigits.Strip(text, culture.NumberFormat) is { } plain ? plain : text;

    private static bool HasDigit(string text) => text.AsSpan().IndexOfAnyInRange('0', '9') >= 0;

    /// <summary>Whether a digit from 1 to 9 comes before the exponent.</summary>
    private static bool HasNonZeroMantissa(ReadOnlySpan<byte> utf8)
    {
        var exponent = utf8.IndexOfAny((byte)'e', (byte)'E');
        return (exponent < 0 ? utf8 : utf8[..exponent]).IndexOfAnyInRange((byte)'1', (byte)'9') >= 0;
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);

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
