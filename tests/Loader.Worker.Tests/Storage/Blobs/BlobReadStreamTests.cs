using Azure;
using Loader.Worker.Storage.Blobs;

namespace Loader.Worker.Tests.Storage.Blobs;

/// <summary>The block-wise, read-ahead blob stream (on the SDK's ranged downloads) against a real Azurite Blob service.</summary>
public sealed class BlobReadStreamTests(BlobAzuriteFixture fixture) : IClassFixture<BlobAzuriteFixture>
{
    private const int BlockSize = 64 * 1024;
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;

    private async Task<(string Container, InputBlob Blob, byte[] Bytes)> UploadAsync(int length, int seed)
    {
        var container = await fixture.CreateContainerAsync(_cancellation);
        var bytes = BlobAzuriteFixture.RandomBytes(length, seed);
        var blob = await fixture.UploadAsync(container, "input/data.csv", BinaryData.FromBytes(bytes), "text/csv", _cancellation);
        return (container, blob, bytes);
    }

    [Fact]
    public async Task Synchronous_reads_of_a_blob_larger_than_a_block_give_exactly_its_bytes()
    {
        var (container, blob, bytes) = await UploadAsync(1024 * 1024 + 123, seed: 11);
        using var stream = new BlobReadStream(fixture.Blob(container, blob.Name), blob, BlockSize);
        var read = new MemoryStream();
        var chunk = new byte[10_007];
        var positions = new List<long>();

        int count;
        while ((count = stream.Read(chunk, 0, chunk.Length)) > 0)
        {
            read.Write(chunk, 0, count);
            positions.Add(stream.Position);
        }

        Assert.Equal(bytes.Length, stream.Length);
        Assert.Equal(bytes, read.ToArray());
        Assert.Equal(bytes.Length, stream.Position);
        Assert.Equal(positions.Order(), positions);
        Assert.Equal(0, stream.Read(chunk, 0, chunk.Length));
    }

    [Fact]
    public async Task Asynchronous_reads_give_exactly_the_bytes_too()
    {
        var (container, blob, bytes) = await UploadAsync(5 * BlockSize, seed: 12);
        await using var stream = new BlobReadStream(fixture.Blob(container, blob.Name), blob, BlockSize);
        var read = new MemoryStream();

        await stream.CopyToAsync(read, 3 * BlockSize, _cancellation);

        Assert.Equal(bytes, read.ToArray());
    }

    [Fact]
    public async Task A_blob_rewritten_between_blocks_fails_the_read_saying_it_changed()
    {
        var (container, blob, bytes) = await UploadAsync(1024 * 1024, seed: 13);
        using var stream = new BlobReadStream(fixture.Blob(container, blob.Name), blob, BlockSize);
        var first = new byte[BlockSize];
        stream.ReadExactly(first);
        Assert.Equal(bytes[..BlockSize], first);

        await fixture.UploadAsync(container, blob.Name, BinaryData.FromBytes(BlobAzuriteFixture.RandomBytes(bytes.Length, seed: 14)), "text/csv", _cancellation);
        var exception = Assert.Throws<RequestFailedException>(() => stream.CopyTo(Stream.Null));

        Assert.Equal(412, exception.Status);
        Assert.Contains("The blob changed while it was being read", exception.Message, StringComparison.Ordinal);
        Assert.Contains(blob.Name, exception.Message, StringComparison.Ordinal);
        // The failure stays: a later read does not carry on with the new version.
        Assert.Throws<RequestFailedException>(() => stream.ReadByte());
    }

    [Fact]
    public async Task An_empty_blob_reads_as_nothing()
    {
        var (container, blob, _) = await UploadAsync(0, seed: 15);
        using var stream = new BlobReadStream(fixture.Blob(container, blob.Name), blob, BlockSize);

        Assert.Equal(0, stream.Read(new byte[16], 0, 16));
        Assert.Equal(0, await stream.ReadAsync(new byte[16], _cancellation));
        Assert.Equal(0, stream.Position);
    }

    [Fact]
    public async Task The_stream_reads_forward_only_and_not_after_dispose()
    {
        var (container, blob, _) = await UploadAsync(3 * BlockSize, seed: 16);
        var stream = new BlobReadStream(fixture.Blob(container, blob.Name), blob, BlockSize);
        Assert.Equal(1, stream.Read(new byte[1], 0, 1));

        Assert.False(stream.CanSeek);
        Assert.Throws<NotSupportedException>(() => stream.Position = 0);
        Assert.Throws<NotSupportedException>(() => stream.Seek(0, SeekOrigin.Begin));
        Assert.Throws<NotSupportedException>(() => stream.Write([1], 0, 1));

        stream.Dispose();
        Assert.False(stream.CanRead);
        Assert.Throws<ObjectDisposedException>(() => stream.Read(new byte[1], 0, 1));
    }
}
