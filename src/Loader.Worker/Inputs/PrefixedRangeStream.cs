
namespace Loader.Worker.Inputs;

/// <summary>
/// Some bytes, then at most so many bytes of another stream: a range shard's header before the records of its range.
/// Forward-only; disposes the inner stream. (The framework has no public bounded or concatenating stream.)
/// </summary>
internal sealed class PrefixedRangeStream(byte[] prefix, Stream inner, long innerLength) : ForwardReadStream
{
    private readonly long _length = prefix.Length + innerLength;
    private int _prefixRead;
    private long _innerLeft = innerLength;
    private long _position;

    public override long Length => _length;

    /// <summary>Bytes read so far; setting it is not supported.</summary>
    public override long Position
    {
        get => _position;
        set => throw new NotSupportedException();
    }

    public override int Read(Span<byte> buffer)
    {
        if (buffer.IsEmpty)
        {
            return 0;
        }

        int read;
        if (_prefixRead < prefix.Length)
        {
            read = Math.Min(buffer.Length, prefix.Length - _prefixRead);
            prefix.AsSpan(_prefixRead, read).CopyTo(buffer);
            _prefixRead += read;
        }
        else if (_innerLeft > 0)
        {
            read = inner.Read(buffer[..(int)Math.Min(buffer.Length, _innerLeft)]);
            if (read == 0)
            {
                throw new IOException($"the input ended {_innerLeft:N0} bytes before the end of the range being read.");
            }

            _innerLeft -= read;
        }
        else
        {
            return 0;
        }

        _position += read;
        return read;
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
