using Azure;
using Azure.Storage.Blobs;
using Azure.Identity;
using Azure.Storage.Blobs.Models;
using Azure.Storage.Blobs.Specialized;
using Loader.Worker.Security;
using Loader.Worker.Storage.Blobs;

namespace Loader.Worker.Outputs;

/// <summary>An output kept in a blob (a Container Apps job keeps nothing on its own disk): Put Blob replaces it whole.</summary>
internal sealed class BlobOutputFile(BlobClient blob, BlobAddress address, Redaction redaction) : OutputFile(redaction)
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

    /// <summary>
    /// Writes an empty probe blob beside the output and deletes it. A missing container is created (which needs the
    /// right to: Storage Blob Data Contributor, a key, or an account SAS with create); a probe left because the
    /// credential may write but not delete is said, not hidden.
    /// </summary>
    public override async Task<string?> ProveWritableAsync(CancellationToken cancellationToken)
    {
        var container = blob.GetParentBlobContainerClient();
        var probe = container.GetBlobClient($"{address.Path}.probe-{Guid.NewGuid():N}");
        string? done = null;
        try
        {
            try
            {
                await probe.UploadAsync(BinaryData.Empty, overwrite: true, cancellationToken).ConfigureAwait(false);
            }
            catch (RequestFailedException exception) when (exception.Status == 404 && exception.ErrorCode == BlobErrorCode.ContainerNotFound)
            {
                await CreateContainerAsync(container, cancellationToken).ConfigureAwait(false);
                done = $"container '{container.Name}' created";
                await probe.UploadAsync(BinaryData.Empty, overwrite: true, cancellationToken).ConfigureAwait(false);
            }
        }
        catch (RequestFailedException exception)
        {
            throw new OutputNotWritableException(exception.Status switch
            {
                0 => $"no answer from {address.AccountEndpoint}: {exception.GetBaseException().Message}",
                401 or 403 => $"the credential may not write in container '{container.Name}' ({exception.Status} {exception.ErrorCode}): it needs Storage Blob Data Contributor, or a SAS with write permission",
                _ => BlobErrors.Failure(exception, $"writing a probe blob beside '{address.Display}'").Message,
            }, exception);
        }
        catch (AuthenticationFailedException exception)
        {
            throw new OutputNotWritableException($"no credential could sign in to write '{address.Display}': {exception.Message.Split('\n')[0]}", exception);
        }
        catch (AggregateException exception) when (OutputWriteRetry.IsOutputFailure(exception))
        {
            // Every one of the SDK's own tries went unanswered.
            throw new OutputNotWritableException($"no answer from {address.AccountEndpoint} after {exception.InnerExceptions.Count} tries: {exception.InnerExceptions[^1].GetBaseException().Message}", exception);
        }

        try
        {
            await probe.DeleteIfExistsAsync(cancellationToken: cancellationToken).ConfigureAwait(false);
        }
        catch (RequestFailedException exception) when (exception.Status is 401 or 403)
        {
            done = (done is null ? "" : done + "; ") + $"the probe blob '{probe.Name}' stays: the credential may write but not delete";
        }

        return done;
    }

    private static async Task CreateContainerAsync(Azure.Storage.Blobs.BlobContainerClient container, CancellationToken cancellationToken)
    {
        try
        {
            await container.CreateIfNotExistsAsync(cancellationToken: cancellationToken).ConfigureAwait(false);
        }
        catch (RequestFailedException exception) when (exception.Status is 401 or 403)
        {
            throw new OutputNotWritableException(
                $"container '{container.Name}' does not exist, and the credential may not create it ({exception.Status} {exception.ErrorCode}): create it, or grant Storage Blob Data Contributor on the account",
                exception);
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
