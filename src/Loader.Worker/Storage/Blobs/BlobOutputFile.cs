using Loader.Worker.Outputs;

namespace Loader.Worker.Storage.Blobs;

/// <summary>An output kept in a blob (a Container Apps job keeps nothing on its own disk): Put Blob replaces it whole.</summary>
public sealed class BlobOutputFile(BlobRestClient client, BlobAddress address) : OutputFile
{
    public override string Display => address.Display;

    public override async Task<BinaryData?> ReadAsync(CancellationToken cancellationToken) =>
        (await client.DownloadAsync(address.Container, address.Path, cancellationToken).ConfigureAwait(false))?.Content;

    public override async Task WriteAsync(BinaryData content, string contentType, CancellationToken cancellationToken) =>
        await client.UploadAsync(address.Container, address.Path, content, contentType, cancellationToken).ConfigureAwait(false);
}
