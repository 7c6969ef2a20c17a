using System.Runtime.ExceptionServices;

namespace Loader.Worker.Parquet;

/// <summary>
/// The stream a Parquet file is read from, as both Parquet readers see it: every call goes to the file's own stream,
/// and a failure of that stream (a blob request refused, a disk error) is kept. The page reader is native code, which
/// hands such a failure back as its own error with the message only; kept here, it is thrown as what it was, so a failed
/// read is not mistaken for a damaged file.
/// </summary>
internal sealed class ParquetSourceStream(Stream inner) : Stream
{
    private ExceptionDispatchInfo? _failure;

    public override bool CanRead => inner.CanRead;

    public override bool CanSeek => inner.CanSeek;

    public override bool CanWrite => false;

    public override long Length => Kept(() => inner.Length);

    public override long Position
    {
        get => Kept(() => inner.Position);
        set => Kept(() => inner.Position = value);
    }

    /// <summary>Throws the failure of the file's stream since the last call, if there was one.</summary>
    public void ThrowIfFailed()
    {
        var failure = Interlocked.Exchange(ref _failure, null);
        failure?.Throw();
    }

    public override int Read(byte[] buffer, int offset, int count) => Kept(() => inner.Read(buffer, offset, count));

    public override int Read(Span<byte> buffer)
    {
        try
        {
            return inner.Read(buffer);
        }
        catch (Exception exception)
        {
            _failure = ExceptionDispatchInfo.Capture(exception);
            throw;
        }
    }

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        try
        {
            return await inner.ReadAsync(buffer, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception exception)
        {
            _failure = ExceptionDispatchInfo.Capture(exception);
            throw;
        }
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override long Seek(long offset, SeekOrigin origin) => Kept(() => inner.Seek(offset, origin));

    public override void Flush()
    {
    }

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

    private T Kept<T>(Func<T> call)
    {
        try
        {
            return call();
        }
        catch (Exception exception)
        {
            _failure = ExceptionDispatchInfo.Capture(exception);
            throw;
        }
    }
}
