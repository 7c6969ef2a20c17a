namespace Loader.Worker.Inputs;

/// <summary>
/// Counts the bytes read through it, so progress can say how far into the input a load is (percent and ETA against
/// <see cref="InputSource.Length"/>). Wrap the input as it is stored, before anything that changes its size
/// (a decompressor goes on top of this stream): the length it is compared with is the stored size. Reading is
/// passed straight through; the count may be read from any thread.
/// </summary>
public sealed class CountingStream(Stream inner) : Stream
{
    private long _bytesRead;

    /// <summary>Bytes read from the inner stream so far.</summary>
    public long BytesRead => Interlocked.Read(ref _bytesRead);

    public override bool CanRead => true;

    public override bool CanSeek => false;

    public override bool CanWrite => false;

    public override long Length => throw new NotSupportedException();

    public override long Position
    {
        get => BytesRead;
        set => throw new NotSupportedException();
    }

    public override int Read(byte[] buffer, int offset, int count) => Counted(inner.Read(buffer, offset, count));

    public override int Read(Span<byte> buffer) => Counted(inner.Read(buffer));

    public override int ReadByte()
    {
        var value = inner.ReadByte();
        if (value >= 0)
        {
            Interlocked.Increment(ref _bytesRead);
        }

        return value;
    }

    public override async Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        Counted(await inner.ReadAsync(buffer.AsMemory(offset, count), cancellationToken).ConfigureAwait(false));

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
        Counted(await inner.ReadAsync(buffer, cancellationToken).ConfigureAwait(false));

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            inner.Dispose();
        }

        base.Dispose(disposing);
    }

    public override async ValueTask DisposeAsync()
    {
        await inner.DisposeAsync().ConfigureAwait(false);
        await base.DisposeAsync().ConfigureAwait(false);
    }

    private int Counted(int read)
    {
        Interlocked.Add(ref _bytesRead, read);
        return read;
    }
}
