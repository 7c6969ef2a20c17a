namespace Loader.Worker.Inputs;

/// <summary>
/// A stream the input is read through: read-only and forward-only, with no length of its own. The input's layers
/// (a part's counted bytes, its decompressor, the parts combined, the CSV reader's runaway-quote guard) derive from it
/// and say only how they read.
/// </summary>
internal abstract class ForwardReadStream : Stream
{
    public override bool CanRead => true;

    public override bool CanSeek => false;

    public override bool CanWrite => false;

    public override long Length => throw new NotSupportedException();

    /// <summary>Bytes read so far, where the stream counts them; setting it is not supported.</summary>
    public override long Position
    {
        get => throw new NotSupportedException();
        set => throw new NotSupportedException();
    }

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    public abstract override int Read(Span<byte> buffer);

    /// <summary>
    /// Served on the caller's thread: the layers above the storage are CPU work (decompressing, scanning, combining) and
    /// the storage fetches ahead on its own, so there is nothing to wait for asynchronously.
    /// </summary>
    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        cancellationToken.ThrowIfCancellationRequested();
        return ValueTask.FromResult(Read(buffer.Span));
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
}
