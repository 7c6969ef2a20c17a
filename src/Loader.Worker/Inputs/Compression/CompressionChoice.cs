
namespace Loader.Worker.Inputs.Compression;

/// <summary>
/// The codec a part of the input is read with: <c>Loader:Csv:Compression</c> when it names one; under <c>Auto</c> a
/// blob's Content-Encoding, else the extension of the name. Plain when none of them says otherwise.
/// </summary>
internal static class CompressionChoice
{
    private static readonly Dictionary<string, InputCompression> s_extensions = new(StringComparer.OrdinalIgnoreCase)
    {
        [".gz"] = InputCompression.Gzip,
        [".gzip"] = InputCompression.Gzip,
        [".br"] = InputCompression.Brotli,
        [".zz"] = InputCompression.Deflate,
        [".zlib"] = InputCompression.Deflate,
        [".deflate"] = InputCompression.Deflate,
        [".zst"] = InputCompression.Zstd,
        [".zstd"] = InputCompression.Zstd,
    };

    // HTTP content codings (RFC 9110 section 8.4.1, and the IANA registry for br and zstd); identity is the absence of one.
    private static readonly Dictionary<string, InputCompression> s_contentEncodings = new(StringComparer.OrdinalIgnoreCase)
    {
        ["gzip"] = InputCompression.Gzip,
        ["x-gzip"] = InputCompression.Gzip,
        ["br"] = InputCompression.Brotli,
        ["deflate"] = InputCompression.Deflate,
        ["zstd"] = InputCompression.Zstd,
    };

    /// <summary>Whether <paramref name="extension"/> (with its dot) names a codec, so the name's format is the extension before it.</summary>
    public static bool IsCompressionExtension(string extension) => s_extensions.ContainsKey(extension);

    /// <summary>The codec of the part <paramref name="name"/> (a blob's <paramref name="contentEncoding"/> when it has one).</summary>
    /// <exception cref="InvalidOperationException">The blob's Content-Encoding is one the loader cannot decode.</exception>
    public static InputCompression For(InputCompression setting, string name, string? contentEncoding = null)
    {
        if (setting != InputCompression.Auto)
        {
            return setting;
        }

        var encoding = contentEncoding?.Trim();
        if (!string.IsNullOrEmpty(encoding) && !encoding.Equals("identity", StringComparison.OrdinalIgnoreCase))
        {
            return s_contentEncodings.TryGetValue(encoding, out var codec)
                ? codec
                : throw new InvalidOperationException(
                    $"'{name}' has Content-Encoding '{encoding}', which the loader cannot decode (it reads {string.Join(", ", s_contentEncodings.Keys)}); set Loader:Csv:Compression to say how to read it.");
        }

        return s_extensions.TryGetValue(Path.GetExtension(name), out var byName) ? byName : InputCompression.None;
    }
}
