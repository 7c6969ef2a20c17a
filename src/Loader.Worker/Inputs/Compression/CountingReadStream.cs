using Loader.Worker.Csv;

namespace Loader.Worker.Inputs.Compression;

/// <summary>
/// A part's bytes as stored, counted as they are read: into the part's own <see cref="Position"/> (where a damaged
/// compressed file is reported) and the whole input's <see cref="InputProgress"/>. It sits under the decompressor, so
/// progress is compressed bytes against the compressed size. Can look at the first bytes before they are read
/// (<see cref="Peek"/>), for a codec that tells its variants apart by a header. Forward-only.
/// </summary>
internal sealed class CountingReadStream(Stream inner, InputProgress? progress) : ForwardReadStream
{
    private byte[] _peeked = [];
    private int _peekedOffset;
    private long _position;

    public override long Length => inner.Length;

    /// <summary>Bytes of the part read so far (peeked ones included).</summary>
    public override long Position
    {
        get => _position;
        set => throw new NotSupportedException();
    }

    /// <summary>Up to <paramref name="count"/> first bytes of the part (fewer when it is shorter), which later reads return again. Only before any read.</summary>
    public ReadOnlySpan<byte> Peek(int count)
    {
        if (_position > 0)
        {
            throw new InvalidOperationException("peeking is only possible before the first read.");
        }

        var buffer = new byte[count];
        var read = inner.ReadAtLeast(buffer, count, throwOnEndOfStream: false);
        Count(read);
        _peeked = buffer[..read];
        return _peeked;
    }

    public override int Read(Span<byte> buffer)
    {
        if (_peekedOffset < _peeked.Length && !buffer.IsEmpty)
        {
            return FromPeeked(buffer);
        }

        var read = inner.Read(buffer);
        Count(read);
        return read;
    }

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (_peekedOffset < _peeked.Length && !buffer.IsEmpty)
        {
            return FromPeeked(buffer.Span);
        }

        var read = await inner.ReadAsync(buffer, cancellationToken).ConfigureAwait(false);
        Count(read);
        return read;
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    private int FromPeeked(Span<byte> buffer)
    {
        var count = Math.Min(buffer.Length, _peeked.Length - _peekedOffset);
        _peeked.AsSpan(_peekedOffset, count).CopyTo(buffer);
        _peekedOffset += count;
        return count;
    }

    private void Count(int read)
    {
        _position += read;
        progress?.Add(read);
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            inner.Dispose();
        }

        base.Dispose(disposing);
    }
}
