using System.Globalization;
using Loader.Worker.Csv;

namespace Loader.Worker.Inputs.Compression;

/// <summary>
/// A part's decompressed text. Whatever the decompressor finds wrong — a stream cut short, data it cannot decode, a
/// checksum that does not match, bytes after the end of the compressed stream — comes out as a
/// <see cref="DamagedInputException"/> naming the part and the compressed byte it was reading, never as the end of the
/// input. Failures of the storage underneath (a network error) pass as they are.
/// </summary>
internal sealed class DecompressingStream(Stream decompressor, CountingReadStream stored, InputCompression codec, string part, long length) : ForwardReadStream
{
    private bool _ended;

    public override int Read(Span<byte> buffer)
    {
        if (_ended || buffer.IsEmpty)
        {
            return 0;
        }

        int read;
        try
        {
            read = decompressor.Read(buffer);
        }
        catch (Exception exception) when (IsDamage(exception, codec))
        {
            throw Damaged(exception.Message, exception);
        }

        if (read == 0)
        {
            _ended = true;
            CheckNothingFollows();
        }

        return read;
    }

    /// <summary>
    /// The decompressor says its stream ended; the file must end there too. Bytes after it are a second stream the codec
    /// does not chain (deflate, zlib, Brotli) or garbage: taking them for the end would load the file short without a word.
    /// The decompressor may have read a few of them into its own buffer already; any beyond that are found here.
    /// </summary>
    private void CheckNothingFollows()
    {
        if (stored.Position >= length)
        {
            return;
        }

        Span<byte> one = stackalloc byte[1];
        if (stored.Read(one) > 0)
        {
            throw Damaged(string.Create(CultureInfo.InvariantCulture,
                $"more bytes follow the end of the {codec} stream (the file has {length:N0} bytes); a file of several concatenated {codec} streams, or one with data appended, cannot be read as one"), null);
        }
    }

    private DamagedInputException Damaged(string reason, Exception? inner)
    {
        var offset = stored.Position;
        var where = offset >= length
            ? string.Create(CultureInfo.InvariantCulture, $"its {codec} data end at byte {length:N0}, the end of the file, before the compressed stream is complete: the file is truncated or damaged")
            : string.Create(CultureInfo.InvariantCulture, $"its {codec} data are damaged at or before byte {offset:N0} of {length:N0}");
        return new DamagedInputException(part, Math.Min(offset, length), $"'{part}' cannot be decompressed: {where} ({reason.TrimEnd('.')}).", inner);
    }

    /// <summary>
    /// What the decompressors throw for bad data: the runtime's InvalidDataException (BrotliStream: an
    /// InvalidOperationException, "Decoder ran into invalid data"), ZstdSharp's ZstdException and its
    /// EndOfStreamException for a stream cut short. The storage below throws none of them.
    /// </summary>
    private static bool IsDamage(Exception exception, InputCompression codec) =>
        exception is InvalidDataException or ZstdSharp.ZstdException or EndOfStreamException
        || (codec == InputCompression.Brotli && exception is InvalidOperationException);

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            decompressor.Dispose();
            stored.Dispose();
        }

        base.Dispose(disposing);
    }
}
