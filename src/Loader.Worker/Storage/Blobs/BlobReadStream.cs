using System.Globalization;
using Azure;
using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Models;

namespace Loader.Worker.Storage.Blobs;

/// <summary>
/// A read-only, forward-only stream over one blob, read in blocks with the next block on its way while the
/// current one is consumed, so the reader rarely waits on the network. Every block is read under the ETag the
/// stream was opened with: a blob rewritten midway fails the read (412) instead of splicing two versions.
/// Synchronous reads wait on the asynchronous path, for readers (CsvHelper on its own thread) that read synchronously.
/// Not for concurrent reads, like any stream.
/// <para>
/// Kept, on the SDK's ranged downloads, rather than the SDK's own <c>BlobClient.OpenReadAsync</c> (which fetches
/// the next block only when the reader has used up the last) because it is faster: <c>bench/run.sh blobread --repeat 7</c>
/// on 2026-11-23 (Azurite 3.37, a 105.5 MiB CSV parsed by the loader's CSV reader, 4 MiB blocks, both pinned to the
/// ETag, load average 11-14 on 2 cores) gave a median 0.58 s (181 MiB/s) against 0.76 s (139 MiB/s) for OpenReadAsync.
/// On a real account, where each block costs a network round trip, fetching ahead matters more, not less.
/// </para>
/// </summary>
internal sealed class BlobReadStream : Stream
{
    public const int DefaultBlockSize = 4 * 1024 * 1024;

    private readonly BlobClient _client;
    private readonly InputBlob _blob;
    private readonly int _blockSize;
    private readonly long _end;
    private readonly long _length;
    private readonly CancellationTokenSource _disposal = new();
    private byte[] _current = [];
    private byte[] _spare = [];
    private int _currentCount;
    private int _currentOffset;
    private long _position;
    private long _fetchOffset;

    /// <summary>Reads the blob whole.</summary>
    public BlobReadStream(BlobClient client, InputBlob blob, int blockSize = DefaultBlockSize)
        : this(client, blob, 0, blob?.Length ?? 0, blockSize)
    {
    }

    /// <summary>Reads the bytes of the blob from <paramref name="start"/> up to <paramref name="end"/> (exclusive): a range shard of it.</summary>
    public BlobReadStream(BlobClient client, InputBlob blob, long start, long end, int blockSize = DefaultBlockSize)
    {
        _client = client ?? throw new ArgumentNullException(nameof(client));
        _blob = blob ?? throw new ArgumentNullException(nameof(blob));
        _blockSize = blockSize > 0 ? blockSize : throw new ArgumentOutOfRangeException(nameof(blockSize), blockSize, "the block size must be positive.");
        if (start < 0 || end < start || end > blob.Length)
        {
            throw new ArgumentOutOfRangeException(nameof(start), start, $"the range {start}-{end} is not within the blob's {blob.Length} bytes.");
        }

        _fetchOffset = start;
        _end = end;
        _length = end - start;
    }
    private Task<int>? _next;
    private bool _disposed;

    public override bool CanRead => !_disposed;

    public override bool CanSeek => false;

    public override bool CanWrite => false;

    public override long Length => _length;

    /// <summary>Bytes handed to the reader so far; setting it is not supported.</summary>
    public override long Position
    {
        get => _position;
        set => throw new NotSupportedException("a blob read stream reads forward only.");
    }

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (buffer.IsEmpty || !await HasDataAsync(cancellationToken).ConfigureAwait(false))
        {
            return 0;
        }

        return TakeFromCurrent(buffer.Span);
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
    {
        ValidateBufferArguments(buffer, offset, count);
        return ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();
    }

    public override int Read(Span<byte> buffer)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (buffer.IsEmpty)
        {
            return 0;
        }

        // Blocks only when the current block is used up and the next one has not arrived yet.
        var hasData = HasDataAsync(CancellationToken.None);
        if (!(hasData.IsCompletedSuccessfully ? hasData.Result : hasData.AsTask().GetAwaiter().GetResult()))
        {
            return 0;
        }

        return TakeFromCurrent(buffer);
    }

    public override int Read(byte[] buffer, int offset, int count)
    {
        ValidateBufferArguments(buffer, offset, count);
        return Read(buffer.AsSpan(offset, count));
    }

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException("a blob read stream reads forward only.");

    public override void SetLength(long value) => throw new NotSupportedException("a blob read stream is read-only.");

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException("a blob read stream is read-only.");

    protected override void Dispose(bool disposing)
    {
        if (disposing && !_disposed)
        {
            _disposed = true;
            _disposal.Cancel();
            // The cancelled prefetch is observed, and the token source outlives it, without Dispose waiting for it.
            var disposal = _disposal;
            if (_next is { } next)
            {
                next.ContinueWith(task => { _ = task.Exception; disposal.Dispose(); }, CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Default);
            }
            else
            {
                disposal.Dispose();
            }
        }

        base.Dispose(disposing);
    }

    /// <summary>Makes the current block one with unread bytes, waiting for the next block when needed; false at the end.</summary>
    private async ValueTask<bool> HasDataAsync(CancellationToken cancellationToken)
    {
        if (_currentOffset < _currentCount)
        {
            return true;
        }

        if (_position >= _length)
        {
            return false;
        }

        if (_next is null)
        {
            var size = (int)Math.Min(_blockSize, _length);
            (_current, _spare) = (new byte[size], new byte[size]);
            _next = FetchIntoSpare();
        }

        // A failed fetch stays in _next, so every later read reports the same failure.
        var count = await _next.WaitAsync(cancellationToken).ConfigureAwait(false);
        var expected = (int)Math.Min(_blockSize, _length - _position);
        if (count != expected)
        {
            throw new IOException(string.Create(CultureInfo.InvariantCulture,
                $"blob '{_client.BlobContainerName}/{_blob.Name}' ended at {_end - _length + _position + count:N0} bytes, before the {_blob.Length:N0} it had when it was opened."));
        }

        (_current, _spare) = (_spare, _current);
        (_currentOffset, _currentCount) = (0, count);
        _next = _fetchOffset < _end ? FetchIntoSpare() : Task.FromResult(0);
        return true;
    }

    private Task<int> FetchIntoSpare()
    {
        var offset = _fetchOffset;
        var length = (int)Math.Min(_blockSize, _end - offset);
        _fetchOffset += length;
        return ReadRangeAsync(offset, _spare.AsMemory(0, length), _disposal.Token);
    }

    /// <summary>
    /// Reads bytes from <paramref name="offset"/> into <paramref name="buffer"/>, as long as the blob is still at the
    /// version the stream was opened with; returns how many were read, less than the buffer only at the end of the blob.
    /// </summary>
    private async Task<int> ReadRangeAsync(long offset, Memory<byte> buffer, CancellationToken cancellationToken)
    {
        var options = new BlobDownloadOptions
        {
            Range = new HttpRange(offset, buffer.Length),
            Conditions = new BlobRequestConditions { IfMatch = _blob.ETag },
        };
        try
        {
            // Streamed straight into the block's buffer instead of buffered whole and copied.
            using var download = (await _client.DownloadStreamingAsync(options, cancellationToken).ConfigureAwait(false)).Value;
            return await download.Content.ReadAtLeastAsync(buffer, buffer.Length, throwOnEndOfStream: false, cancellationToken).ConfigureAwait(false);
        }
        catch (RequestFailedException exception) when (exception.Status == 416)
        {
            return 0;
        }
        catch (RequestFailedException exception)
        {
            var action = string.Create(CultureInfo.InvariantCulture, $"reading blob '{_client.BlobContainerName}/{_blob.Name}' at offset {offset:N0}");
            throw exception.Status == 412
                ? BlobErrors.Failure(exception, action, $"The blob changed while it was being read: it is no longer the version (ETag {_blob.ETag}) the read started from.")
                : BlobErrors.Failure(exception, action);
        }
    }

    private int TakeFromCurrent(Span<byte> destination)
    {
        var count = Math.Min(destination.Length, _currentCount - _currentOffset);
        _current.AsSpan(_currentOffset, count).CopyTo(destination);
        _currentOffset += count;
        _position += count;
        return count;
    }
}
