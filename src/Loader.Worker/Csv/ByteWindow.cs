using System.Runtime.ExceptionServices;

namespace Loader.Worker.Csv;

/// <summary>
/// The bytes read from an input and not yet given out, in one buffer read a chunk at a time. Bytes are given out only
/// up to a released position, so a record can be held back while it is still open; the bytes held may be replaced
/// (<see cref="Splice"/>) or dropped before they go. Places in it are positions in the bytes given out, counted from
/// the first: they stay put when the given-out bytes leave the front of the buffer, so whoever scans the window keeps
/// them across reads.
/// </summary>
/// <remarks>
/// A read that fails (a damaged compressed file, a broken connection) ends the input as its end would; the failure is
/// kept for <see cref="ThrowIfFailed"/>, so that what was read whole before it can still be given out first.
/// </remarks>
internal sealed class ByteWindow(Stream inner)
{
    private const int ChunkSize = 64 * 1024;

    private byte[] _buffer = new byte[ChunkSize * 2];

    // The position of _buffer[0]: bytes given out before it have left the buffer.
    private long _origin;

    // Indexes into _buffer: the first byte not given out, the end of what may be given out, the end of what is held.
    private int _start;
    private int _released;
    private int _length;

    // Bytes given out beyond those read (replacements longer than what they replaced, less bytes dropped).
    private long _netInserted;

    private ExceptionDispatchInfo? _failure;

    /// <summary>The input has ended (or failed): nothing more will be read.</summary>
    public bool Ended { get; private set; }

    /// <summary>Whether the input failed part way rather than ended.</summary>
    public bool Failed => _failure is not null;

    /// <summary>The position of the first byte held.</summary>
    public long Origin => _origin;

    /// <summary>The position after the last byte held.</summary>
    public long End => _origin + _length;

    /// <summary>The bytes held, from <see cref="Origin"/>; valid until the window next reads, splices or drops.</summary>
    public ReadOnlySpan<byte> Held => _buffer.AsSpan(0, _length);

    /// <summary>Whether released bytes are waiting to be given out.</summary>
    public bool HasReleased => _start < _released;

    /// <summary>The input offset of <paramref name="position"/>, when no byte after it was replaced or dropped.</summary>
    public long InputOffset(long position) => position - _netInserted;

    /// <summary>The bytes held in [<paramref name="start"/>, <paramref name="end"/>).</summary>
    public ReadOnlySpan<byte> Slice(long start, long end) => _buffer.AsSpan(Index(start), (int)(end - start));

    /// <summary>Throws what stopped the input short, if anything did.</summary>
    public void ThrowIfFailed() => _failure?.Throw();

    /// <summary>Reads until <paramref name="count"/> bytes are held or the input ends.</summary>
    public void FillTo(int count)
    {
        while (_length < count && Fill())
        {
        }
    }

    /// <summary>Reads the next chunk after what is held; false, and <see cref="Ended"/>, at the end of the input.</summary>
    public bool Fill()
    {
        if (Ended)
        {
            return false;
        }

        if (_start > 0 && _start == _released)
        {
            Compact();
        }

        if (_buffer.Length - _length < ChunkSize)
        {
            Array.Resize(ref _buffer, Math.Max(_buffer.Length * 2, _length + ChunkSize));
        }

        int read;
        try
        {
            read = inner.Read(_buffer, _length, ChunkSize);
        }
        catch (IOException exception)
        {
            _failure = ExceptionDispatchInfo.Capture(exception);
            read = 0;
        }

        _length += read;
        Ended = read == 0;
        return !Ended;
    }

    /// <summary>Bytes before <paramref name="position"/> may be given out.</summary>
    public void Release(long position) => _released = Index(position);

    /// <summary>Gives out released bytes; 0 when none are.</summary>
    public int Take(Span<byte> destination)
    {
        var count = Math.Min(destination.Length, _released - _start);
        _buffer.AsSpan(_start, count).CopyTo(destination);
        _start += count;
        return count;
    }

    /// <summary>Gives out every byte held, released or not, then reads straight from the input: for input not scanned.</summary>
    public int TakeThrough(Span<byte> destination)
    {
        if (_start == _length)
        {
            return inner.Read(destination);
        }

        var count = Math.Min(destination.Length, _length - _start);
        _buffer.AsSpan(_start, count).CopyTo(destination);
        _start += count;
        return count;
    }

    /// <summary>Replaces the bytes held in [<paramref name="start"/>, <paramref name="end"/>); those after them move.</summary>
    public void Splice(long start, long end, ReadOnlySpan<byte> replacement)
    {
        var from = Index(start);
        var to = Index(end);
        var tail = _length - to;
        var length = from + replacement.Length + tail;
        if (length > _buffer.Length)
        {
            Array.Resize(ref _buffer, length + ChunkSize);
        }

        Array.Copy(_buffer, to, _buffer, from + replacement.Length, tail);
        replacement.CopyTo(_buffer.AsSpan(from));
        _length = length;
        _netInserted += replacement.Length - (to - from);
    }

    /// <summary>Drops the bytes held from <paramref name="position"/> on.</summary>
    public void Truncate(long position)
    {
        var index = Index(position);
        _netInserted -= _length - index;
        _length = index;
    }

    private int Index(long position) => (int)(position - _origin);

    /// <summary>Moves what is not given out yet to the front of the buffer.</summary>
    private void Compact()
    {
        var shift = _start;
        Array.Copy(_buffer, shift, _buffer, 0, _length - shift);
        _length -= shift;
        _released -= shift;
        _start = 0;
        _origin += shift;
    }
}
