using Azure.Storage.Blobs;
using Loader.Worker.Storage.Blobs;

namespace Loader.Worker.Inputs;

/// <summary>A blob as part of an input: read in ranged blocks, pinned to the version it had when the load began.</summary>
internal sealed record BlobPart(BlobClient Client, InputBlob Blob) : InputPart(Blob.Name, Blob.Length)
{
    public override string? Version => Blob.ETag.ToString();

    protected override Stream OpenStored(int bufferSize) => new BlobReadStream(Client, Blob, bufferSize);

    public override bool CanOpenRange => Compression == InputCompression.None;

    public override Stream OpenRange(long start, long end, int bufferSize) => new BlobReadStream(Client, Blob, start, end, bufferSize);
}
