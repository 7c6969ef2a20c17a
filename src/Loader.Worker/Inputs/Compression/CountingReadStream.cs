using Azure;
using Azure.Identity;
using Loader.Worker.Backends;

namespace Loader.Worker.Inputs.Compression;

/// <summary>
/// A part's bytes as stored, counted as they are read: into the part's own <see cref="Position"/> and the whole input's
/// <see cref="InputProgress"/>. It sits under the decompressor, so progress is compressed bytes against the compressed
/// size; the time each read waits for the storage is counted there too. Can look at the first bytes before they are read (<see cref="Peek"/>), to check what the part is. A storage
/// failure while reading (a blob rewritten since the load began, no answer after the client's retries) comes out as an
/// <see cref="IOException"/> of one line, as any failure of the input does. Forward-only.
/// </summary>
internal sealed class CountingReadStream(Stream inner, InputProgress? progress, string part) : ForwardReadStream
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
        int read;
        try
        {
            read = inner.ReadAtLeast(buffer, count, throwOnEndOfStream: false);
        }
        catch (Exception exception) when (StorageFailure(exception) is { } failure)
        {
            throw failure;
        }

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

        int read;
        var started = progress?.Clock.GetTimestamp() ?? 0;
        try
        {
            read = inner.Read(buffer);
        }
        catch (Exception exception) when (StorageFailure(exception) is { } failure)
        {
            throw failure;
        }

        progress?.StoredRead(started);
        Count(read);
        return read;
    }

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (_peekedOffset < _peeked.Length && !buffer.IsEmpty)
        {
            return FromPeeked(buffer.Span);
        }

        int read;
        var started = progress?.Clock.GetTimestamp() ?? 0;
        try
        {
            read = await inner.ReadAsync(buffer, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception exception) when (StorageFailure(exception) is { } failure)
        {
            throw failure;
        }

        progress?.StoredRead(started);
        Count(read);
        return read;
    }

    /// <summary>What a storage client threw while reading, as an input failure naming the part; null for anything else.</summary>
    private IOException? StorageFailure(Exception exception) => exception switch
    {
        RequestFailedException or AuthenticationFailedException => new IOException($"reading '{part}' failed: {BackendErrors.Describe(exception)}", exception),
        AggregateException all when all.InnerExceptions.Count > 0 && all.InnerExceptions.All(inner => inner is RequestFailedException or HttpRequestException) =>
            new IOException($"reading '{part}' got no answer after {all.InnerExceptions.Count} tries ({all.InnerExceptions[^1].GetBaseException().Message})", exception),
        _ => null,
    };

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
