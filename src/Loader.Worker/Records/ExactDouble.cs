using System.Globalization;
using System.Text;

namespace Loader.Worker.Records;

/// <summary>
/// A number's text as a double only when the double gives back the same value: what a JSON number the loader types
/// itself, or a DECIMAL written as a double, is held as without rounding silently. Any number of at most 15 significant
/// digits does; past that, the double's shortest text is compared, digit for digit, with the number's.
/// </summary>
internal static class ExactDouble
{
    private const int DigitsEveryDoubleKeeps = 15;

    /// <summary>The number <paramref name="text"/> (ASCII: sign, digits, point, exponent) as a double when that is exact; false when it rounds or overflows.</summary>
    public static bool TryParse(ReadOnlySpan<byte> text, out double value)
    {
        if (!double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out value) || !double.IsFinite(value))
        {
            return false;
        }

        // Most numbers are short: fewer digit characters than a double keeps need no closer look.
        var mantissa = text.IndexOfAny((byte)'e', (byte)'E') is var e and >= 0 ? text[..e] : text;
        if (CountDigits(mantissa) <= DigitsEveryDoubleKeeps)
        {
            return true;
        }

        var number = Normalized(text);
        if (number.Digits.Length <= DigitsEveryDoubleKeeps)
        {
            return true;
        }

        Span<byte> shortest = stackalloc byte[32];
        return value.TryFormat(shortest, out var written, "R", CultureInfo.InvariantCulture) && Normalized(shortest[..written]) == number;
    }

    /// <inheritdoc cref="TryParse(ReadOnlySpan{byte}, out double)"/>
    public static bool TryParse(string text, out double value) => TryParse(Encoding.ASCII.GetBytes(text), out value);

    private static int CountDigits(ReadOnlySpan<byte> text)
    {
        var digits = 0;
        foreach (var character in text)
        {
            if (character is >= (byte)'0' and <= (byte)'9')
            {
                digits++;
            }
        }

        return digits;
    }

    /// <summary>A number as its significant digits and the power of ten of the first: 0.0120 and 1.2E-2 are both ("12", -2).</summary>
    private static (bool Negative, string Digits, int Exponent) Normalized(ReadOnlySpan<byte> text)
    {
        var negative = text.Length > 0 && text[0] == '-';
        var at = negative || (text.Length > 0 && text[0] == '+') ? 1 : 0;
        var digits = new StringBuilder();
        var pointAt = -1;
        for (; at < text.Length && text[at] is (>= (byte)'0' and <= (byte)'9') or (byte)'.'; at++)
        {
            if (text[at] == '.')
            {
                pointAt = digits.Length;
            }
            else
            {
                digits.Append((char)text[at]);
            }
        }

        var exponent = 0;
        if (at < text.Length && text[at] is (byte)'e' or (byte)'E')
        {
            exponent = int.Parse(text[(at + 1)..], NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture);
        }

        var whole = pointAt < 0 ? digits.Length : pointAt;
        var all = digits.ToString();
        var leading = all.Length - all.TrimStart('0').Length;
        var significant = all.Trim('0');
        return significant.Length == 0
            ? (false, "", 0)
            : (negative, significant, exponent + whole - leading - 1);
    }
}
