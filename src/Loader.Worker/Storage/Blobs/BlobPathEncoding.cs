using System.Globalization;
using System.Text;

namespace Loader.Worker.Storage.Blobs;

/// <summary>Percent-encoding of blob paths, where <c>/</c> separates virtual folders and is kept as it is.</summary>
internal static class BlobPathEncoding
{
    private static readonly UTF8Encoding s_strictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    /// <summary>Escapes everything but unreserved characters and <c>/</c>, so the URL carries the name exactly.</summary>
    public static string Escape(string path) =>
        string.Join('/', path.Split('/').Select(Uri.EscapeDataString));

    /// <summary>Whether a segment is <c>.</c> or <c>..</c>, which URLs resolve away instead of carrying.</summary>
    public static bool HasDotSegment(string path) =>
        path.Split('/').Any(segment => segment is "." or "..");

    /// <summary>
    /// Decodes percent-escapes as UTF-8. Strict where <see cref="Uri.UnescapeDataString(string)"/> is lenient: a
    /// stray <c>%</c> or bytes that are not UTF-8 are an error, not a blob name nobody meant.
    /// </summary>
    public static bool TryDecode(string escaped, out string decoded, out string? error)
    {
        decoded = escaped;
        error = null;
        if (!escaped.Contains('%', StringComparison.Ordinal))
        {
            return true;
        }

        var bytes = new List<byte>(escaped.Length);
        var position = 0;
        while (position < escaped.Length)
        {
            var percent = escaped.IndexOf('%', position);
            percent = percent < 0 ? escaped.Length : percent;
            bytes.AddRange(Encoding.UTF8.GetBytes(escaped[position..percent]));
            if (percent == escaped.Length)
            {
                break;
            }

            if (percent + 2 >= escaped.Length
                || !byte.TryParse(escaped.AsSpan(percent + 1, 2), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out var value))
            {
                error = string.Create(CultureInfo.InvariantCulture, $"'%' at position {percent + 1} of the path is not followed by two hex digits (write %25 for a literal %)");
                return false;
            }

            bytes.Add(value);
            position = percent + 3;
        }

        try
        {
            decoded = s_strictUtf8.GetString([.. bytes]);
            return true;
        }
        catch (DecoderFallbackException)
        {
            error = "the percent-escapes in the path are not UTF-8";
            return false;
        }
    }
}
