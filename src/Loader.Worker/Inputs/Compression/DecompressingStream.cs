using System.Globalization;

namespace Loader.Worker.Inputs.Compression;

/// <summary>
/// A part's decompressed text. Whatever the decompressor finds wrong — a stream cut short, data it cannot decode, a
/// checksum that does not match — and bytes after the end of the compressed data come out as a
/// <see cref="DamagedInputException"/> naming the part and the compressed byte, never as the end of the input; a part
/// nothing of which decodes and which reads as plain text, as an <see cref="InputFormatException"/>. Failures of the
/// storage underneath (a network error) pass as they are.
/// </summary>
/// <param name="decompressor">The codec's decompressor, reading from <paramref name="feed"/>.</param>
/// <param name="feed">The part's compressed bytes as handed to the decompressor.</param>
/// <param name="codec">The part's codec.</param>
/// <param name="part">The part's name, for messages.</param>
/// <param name="head">The part's first bytes, for messages.</param>
internal sealed class DecompressingStream(Stream decompressor, CompressedFeed feed, InputCompression codec, string part, byte[] head) : ForwardReadStream
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
            throw Failure(exception);
        }

        if (read == 0)
        {
            _ended = true;
            CheckNothingFollows();
        }

        feed.Decompressed(read);
        return read;
    }

    /// <summary>
    /// The decompressor says its data ended; the part must end there too. Bytes after them are a second stream the codec
    /// does not chain (deflate, zlib, Brotli), something appended, or damage: taking them for the end would load the file
    /// short without a word. Gzip asks for more after each member; the others, given the part's last byte on its own, ask
    /// for it only when their data need it. Of a pipe, whose size is unknown, only bytes beyond what the decompressor took
    /// in are seen.
    /// </summary>
    private void CheckNothingFollows()
    {
        var length = feed.PartLength;
        var follows = codec == InputCompression.Gzip ? !feed.AskedPastEnd
            : length > 0 ? feed.Position < length
            : ReadsMore();
        if (!follows)
        {
            return;
        }

        var end = codec == InputCompression.Gzip ? GzipMemberEnd.Find(feed) : null;
        var where = end is { } exact
            ? length > 0
                ? string.Create(CultureInfo.InvariantCulture, $"which end at byte {exact:N0} of {length:N0}: the {length - exact:N0} bytes after them are not {codec} data")
                : string.Create(CultureInfo.InvariantCulture, $"which end at byte {exact:N0}: the bytes after them are not {codec} data")
            : string.Create(CultureInfo.InvariantCulture, $"which end at or before byte {feed.Position:N0}{(length > 0 ? $" of {length:N0}" : "")}: the bytes after them are not {codec} data");
        var what = codec == InputCompression.Gzip
            ? "something appended to the file, or damage"
            : $"a second {codec} stream, or something appended: a {codec} file holds one stream";
        throw new DamagedInputException(part, end ?? feed.Position, $"'{part}' cannot be decompressed: more bytes follow the end of its {codec} data, {where} ({what}).");
    }

    private bool ReadsMore()
    {
        Span<byte> one = stackalloc byte[1];
        return feed.Read(one) > 0;
    }

    private IOException Failure(Exception exception)
    {
        if (feed.Text == 0 && Signatures.NotDecodable(codec, part, head, exception.Message) is { } notCodec)
        {
            return new InputFormatException(part, notCodec);
        }

        var length = feed.PartLength;
        var offset = feed.Position;
        var reason = exception.Message.TrimEnd('.');
        string where;
        if (codec == InputCompression.Zstd && exception is ZstdSharp.ZstdException { Code: ZstdSharp.Unsafe.ZSTD_ErrorCode.ZSTD_error_prefix_unknown } && feed.Text > 0)
        {
            // After a frame, the next bytes are no frame: something follows the compressed data.
            where = string.Create(CultureInfo.InvariantCulture,
                $"more bytes follow the end of its Zstd data, which end at or before byte {offset:N0}{(length > 0 ? $" of {length:N0}" : "")}: the bytes after them are not a Zstandard frame");
        }
        else if (length > 0 && offset >= length)
        {
            where = string.Create(CultureInfo.InvariantCulture, $"its {codec} data end at byte {length:N0}, the end of the file, before the compressed stream is complete: the file is truncated or damaged");
        }
        else
        {
            where = string.Create(CultureInfo.InvariantCulture, $"its {codec} data are damaged at or before byte {offset:N0}{(length > 0 ? $" of {length:N0}" : "")}");
        }

        return new DamagedInputException(part, length > 0 ? Math.Min(offset, length) : offset, $"'{part}' cannot be decompressed: {where} ({reason}).", exception);
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
            feed.Dispose();
        }

        base.Dispose(disposing);
    }
}
