using Azure;
using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Models;
using Loader.Worker.Outputs;

namespace Loader.Worker.Storage.Blobs;

/// <summary>An output kept in a blob (a Container Apps job keeps nothing on its own disk): Put Blob replaces it whole.</summary>
public sealed class BlobOutputFile(BlobClient blob, BlobAddress address) : OutputFile
{
    public override string Display => address.Display;

    public override async Task<BinaryData?> ReadAsync(CancellationToken cancellationToken)
    {
        try
        {
            var download = await blob.DownloadContentAsync(cancellationToken).ConfigureAwait(false);
            return download.Value.Content;
        }
        catch (RequestFailedException exception) when (exception.Status == 404)
        {
            return null;
        }
        catch (RequestFailedException exception)
        {
            throw BlobErrors.Failure(exception, $"downloading blob '{address.Display}'");
        }
    }

    public override async Task WriteAsync(BinaryData content, string contentType, CancellationToken cancellationToken)
    {
        try
        {
            // Small (a report, a checkpoint, the rejects so far): one Put Blob, which replaces the blob whole.
            await blob.UploadAsync(content, new BlobUploadOptions { HttpHeaders = new BlobHttpHeaders { ContentType = contentType } }, cancellationToken)
                .ConfigureAwait(false);
        }
        catch (RequestFailedException exception)
        {
            throw BlobErrors.Failure(exception, $"uploading blob '{address.Display}'");
        }
    }
}
