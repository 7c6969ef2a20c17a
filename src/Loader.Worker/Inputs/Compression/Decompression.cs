using System.IO.Compression;
using Loader.Worker.Csv;

namespace Loader.Worker.Inputs.Compression;

/// <summary>
/// Puts the decompressor of a part's codec over its counted bytes: the runtime's GZipStream (every member of a
/// multi-member file), BrotliStream, ZLibStream or DeflateStream, and ZstdSharp's DecompressionStream. All stream, so
/// memory stays flat and nothing goes to disk.
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

    /// <summary>The part's text: <paramref name="stored"/> itself when it is plain, else its decompressed bytes; damage is reported with the part's name and offset.</summary>
    public static Stream Open(InputCompression codec, CountingReadStream stored, string part, long length)
    {
        if (codec == InputCompression.None)
        {
            return stored;
        }

        if (codec != InputCompression.Zstd && !RuntimeReportsTruncation)
        {
            throw new InvalidOperationException(
                $"the runtime switch {StrictValidationSwitch} is off, so a truncated {codec} file would pass for a complete one; the loader's runtimeconfig.json sets it.");
        }

        return new DecompressingStream(Decompressor(codec, stored), stored, codec, part, length);
    }

    private static Stream Decompressor(InputCompression codec, CountingReadStream stored) => codec switch
    {
        InputCompression.Gzip => new GZipStream(stored, CompressionMode.Decompress),
        InputCompression.Brotli => new BrotliStream(stored, CompressionMode.Decompress),
        InputCompression.Deflate => IsZlibHeader(stored.Peek(2))
            ? new ZLibStream(stored, CompressionMode.Decompress)
            : new DeflateStream(stored, CompressionMode.Decompress),
        InputCompression.Zstd => new ZstdSharp.DecompressionStream(stored, leaveOpen: false),
        _ => throw new ArgumentOutOfRangeException(nameof(codec), codec, "not a codec"),
    };

    /// <summary>
    /// RFC 1950: method 8 (deflate) with a window of at most 32 KiB, and the two bytes a multiple of 31. What zlib's own
    /// automatic detection checks; a raw deflate stream rarely starts so (its first block would be a stored one).
    /// </summary>
    private static bool IsZlibHeader(ReadOnlySpan<byte> first) =>
        first.Length == 2 && (first[0] & 0x0F) == 8 && (first[0] >> 4) <= 7 && ((first[0] << 8) | first[1]) % 31 == 0;
}
