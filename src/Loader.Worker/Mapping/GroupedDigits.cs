using System.Globalization;

namespace Loader.Worker.Mapping;

/// <summary>
/// Group separators in numbers, by the culture's own grouping: <c>1,234,567.5</c> in the invariant culture,
/// <c>1.234,5</c> in de-DE, <c>12,34,567</c> in hi-IN (groups of 3 then 2). A separator anywhere else (<c>3,14</c>,
/// <c>12,34,5</c>) is not grouping: most likely a decimal separator of another culture, and read as grouping it
/// would turn 3.14 into 314.
/// </summary>
internal static class GroupedDigits
{
    /// <summary>Whether <paramref name="text"/> holds the culture's group separator at all.</summary>
    public static bool HasSeparator(ReadOnlySpan<char> text, NumberFormatInfo format) =>
        format.NumberGroupSeparator.Length > 0 && text.Contains(format.NumberGroupSeparator, StringComparison.Ordinal);

    /// <summary>
    /// The number without its group separators when they group the integer digits as the culture does; null when they
    /// stand anywhere else (in the fraction, the exponent, or around groups of the wrong size).
    /// </summary>
    public static string? Strip(ReadOnlySpan<char> text, NumberFormatInfo format)
    {
        var separator = format.NumberGroupSeparator;
        var trimmed = text.Trim();
        var signLength = trimmed.StartsWith(format.NegativeSign, StringComparison.Ordinal) ? format.NegativeSign.Length
            : trimmed.StartsWith(format.PositiveSign, StringComparison.Ordinal) ? format.PositiveSign.Length
            : 0;
        var body = trimmed[signLength..];
        var decimalAt = body.IndexOf(format.NumberDecimalSeparator, StringComparison.Ordinal);
        var exponentAt = body.IndexOfAny('e', 'E');
        var integerEnd = decimalAt >= 0 ? decimalAt : exponentAt >= 0 ? exponentAt : body.Length;
        var integer = body[..integerEnd];
        if (body[integerEnd..].Contains(separator, StringComparison.Ordinal) || !Grouped(integer, separator, format.NumberGroupSizes))
        {
            return null;
        }

        return string.Concat(trimmed[..signLength], integer.ToString().Replace(separator, "", StringComparison.Ordinal), body[integerEnd..]);
    }

    /// <summary>Checks the groups right to left against the sizes (the last size repeats; a last size of 0 ends grouping).</summary>
    private static bool Grouped(ReadOnlySpan<char> integer, string separator, int[] sizes)
    {
        var groups = new List<int>();
        var rest = integer;
        int at;
        while ((at = rest.LastIndexOf(separator, StringComparison.Ordinal)) >= 0)
        {
            var group = rest[(at + separator.Length)..];
            if (!IsDigits(group))
            {
                return false;
            }

            groups.Add(group.Length);
            rest = rest[..at];
        }

        if (rest.IsEmpty || !IsDigits(rest))
        {
            return false; // nothing, or not digits, before the first separator
        }

        for (var i = 0; i < groups.Count; i++)
        {
            var size = i < sizes.Length ? sizes[i] : sizes[^1];
            if (size == 0 || groups[i] != size)
            {
                return false;
            }
        }

        var leading = groups.Count < sizes.Length ? sizes[groups.Count] : sizes[^1];
        return leading == 0 || rest.Length <= leading;
    }

    private static bool IsDigits(ReadOnlySpan<char> text) => !text.IsEmpty && !text.ContainsAnyExceptInRange('0', '9');
}
