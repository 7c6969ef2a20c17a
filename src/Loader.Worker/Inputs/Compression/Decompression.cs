using System.IO.Compression;

namespace Loader.Worker.Inputs.Compression;

/// <summary>
/// Checks a part's first bytes against what it is read as (<see cref="Signatures"/>), then puts the decompressor of its
/// codec over its counted bytes, fed so that bytes after the compressed data are found (<see cref="CompressedFeed"/>):
/// the runtime's GZipStream (every member of a multi-member file), BrotliStream, ZLibStream or DeflateStream, and
/// ZstdSharp's DecompressionStream. All stream, so memory stays flat and nothing goes to disk.
/// </summary>
/// <remarks>
/// The runtime's streams take a compressed stream that ends early for its end unless the runtime switch
/// <c>System.IO.Compression.UseStrictValidation</c> is on (dotnet/runtime#47563); Directory.Build.props turns it on for
/// every program of this repository, and <see cref="Open"/> refuses to decompress without it.
/// </remarks>
internal static class Decompression
{
    internal const string StrictValidationSwitch = "System.IO.Compression.UseStrictValidation";

    /// <summary>Whether the runtime's decompressors report a truncated stream instead of ending quietly.</summary>
    internal static bool RuntimeReportsTruncation => AppContext.TryGetSwitch(StrictValidationSwitch, out var on) && on;

    /// <summary>
    /// The part's text: <paramref name="stored"/> itself when it is plain, else its decompressed bytes; damage is reported
    /// with the part's name and offset.
    /// </summary>
    /// <exception cref="InputFormatException">The part's first bytes say it is not what it is read as (an archive, another codec).</exception>
    public static Stream Open(InputCompression codec, CountingReadStream stored, string part, long length)
    {
        var head = stored.Peek(Signatures.HeadBytes).ToArray();
        if (Signatures.Refusal(codec, part, head) is { } refusal)
        {
            stored.Dispose();
            throw new InputFormatException(part, refusal);
        }

        if (codec == InputCompression.None)
        {
            return stored;
        }

        if (codec != InputCompression.Zstd && !RuntimeReportsTruncation)
        {
            stored.Dispose();
            throw new InvalidOperationException(
                $"the runtime switch {StrictValidationSwitch} is off, so a truncated {codec} file would pass for a complete one; the loader's runtimeconfig.json sets it.");
        }

        var feed = new CompressedFeed(stored, length, gzip: codec == InputCompression.Gzip);
        return new DecompressingStream(Decompressor(codec, feed, head), feed, codec, part, head);
    }

    private static Stream Decompressor(InputCompression codec, CompressedFeed feed, ReadOnlySpan<byte> head) => codec switch
    {
        InputCompression.Gzip => new GZipStream(feed, CompressionMode.Decompress),
        InputCompression.Brotli => new BrotliStream(feed, CompressionMode.Decompress),
        InputCompression.Deflate => IsZlibHeader(head)
            ? new ZLibStream(feed, CompressionMode.Decompress)
            : new DeflateStream(feed, CompressionMode.Decompress),
        InputCompression.Zstd => new ZstdSharp.DecompressionStream(feed, leaveOpen: false),
        _ => throw new ArgumentOutOfRangeException(nameof(codec), codec, "not a codec"),
    };

    /// <summary>
    /// RFC 1950: method 8 (deflate) with a window of at most 32 KiB, and the two bytes a multiple of 31. What zlib's own
    /// automatic detection checks; a raw deflate stream rarely starts so (its first block would be a stored one).
    /// </summary>
    private static bool IsZlibHeader(ReadOnlySpan<byte> first) =>
        first.Length >= 2 && (first[0] & 0x0F) == 8 && (first[0] >> 4) <= 7 && ((first[0] << 8) | first[1]) % 31 == 0;
}
