using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Models;
using Loader.Worker.Storage.Blobs;

namespace Loader.Worker.Inputs;

/// <summary>A blob as part of an input: read in ranged blocks, pinned to the version it had when the load began.</summary>
internal sealed record BlobPart(BlobClient Client, InputBlob Blob) : InputPart(Blob.Name, Blob.Length)
{
    public override string? Version => Blob.ETag.ToString();

    protected override Stream OpenStored(int bufferSize) => new BlobReadStream(Client, Blob, bufferSize);

    /// <summary>
    /// The SDK's seekable blob stream: each read past its buffer fetches the next <paramref name="bufferSize"/> bytes by a
    /// ranged download, pinned to the ETag the load began with. Forward-only <see cref="BlobReadStream"/> cannot seek.
    /// </summary>
    public override Stream OpenSeekable(int bufferSize) =>
        Client.OpenRead(new BlobOpenReadOptions(allowModifications: false)
        {
            BufferSize = bufferSize,
            Conditions = new BlobRequestConditions { IfMatch = Blob.ETag },
        });

    public override bool CanOpenRange => Compression == InputCompression.None;

    public override Stream OpenRange(long start, long end, int bufferSize) => new BlobReadStream(Client, Blob, start, end, bufferSize);
}
