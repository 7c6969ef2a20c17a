using System.IO.Compression;
using Loader.Worker.Inputs;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>Compresses test input the way the tools that make such files do: the runtime's encoders and ZstdSharp's, default levels.</summary>
internal static class Compressed
{
    /// <summary>The file extension the loader recognizes for each codec (raw deflate: <c>.deflate</c>; zlib: <c>.zz</c>).</summary>
    public static string Extension(InputCompression codec, bool zlib = true) => codec switch
    {
        InputCompression.Gzip => ".gz",
        InputCompression.Brotli => ".br",
        InputCompression.Deflate => zlib ? ".zz" : ".deflate",
        InputCompression.Zstd => ".zst",
        _ => "",
    };

    /// <summary><paramref name="data"/> compressed with <paramref name="codec"/> (zlib-wrapped or raw deflate for <see cref="InputCompression.Deflate"/>).</summary>
    public static byte[] Bytes(InputCompression codec, ReadOnlySpan<byte> data, bool zlib = true)
    {
        var output = new MemoryStream();
        using (var encoder = Encoder(codec, output, zlib))
        {
            encoder.Write(data);
        }

        return output.ToArray();
    }

    /// <summary>Several members (gzip) or frames (Zstandard), one per chunk, one after another: what <c>cat a.gz b.gz</c> makes.</summary>
    public static byte[] Concatenated(InputCompression codec, ReadOnlySpan<byte> data, int pieces)
    {
        var output = new MemoryStream();
        var size = (data.Length + pieces - 1) / pieces;
        for (var start = 0; start < data.Length; start += size)
        {
            output.Write(Bytes(codec, data[start..Math.Min(data.Length, start + size)]));
        }

        return output.ToArray();
    }

    private static Stream Encoder(InputCompression codec, Stream output, bool zlib) => codec switch
    {
        InputCompression.Gzip => new GZipStream(output, CompressionLevel.Optimal, leaveOpen: true),
        InputCompression.Brotli => new BrotliStream(output, CompressionLevel.Optimal, leaveOpen: true),
        InputCompression.Deflate when zlib => new ZLibStream(output, CompressionLevel.Optimal, leaveOpen: true),
        InputCompression.Deflate => new DeflateStream(output, CompressionLevel.Optimal, leaveOpen: true),
        InputCompression.Zstd => new ZstdSharp.CompressionStream(output, level: 3, leaveOpen: true),
        _ => throw new ArgumentOutOfRangeException(nameof(codec), codec, "not a codec"),
    };
}
