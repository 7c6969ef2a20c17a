using System.Globalization;
using System.Net;
using System.Runtime.CompilerServices;
using Azure;
using Azure.Core;
using Azure.Core.Pipeline;

namespace Loader.Worker.Storage.Blobs;

/// <summary>
/// A small client for the Blob service REST protocol (Azure Storage, Azurite) on the Azure.Core pipeline. It
/// exists because the team's NuGet mirror does not serve Azure.Storage.Blobs; it covers what the loader needs:
/// find and read input blobs in ranges, and keep small files (checkpoints, reports) in blobs.
/// The pipeline's own retries are off unless <see cref="BlobRestClientOptions"/> turns them on: the caller decides.
/// </summary>
public sealed class BlobRestClient
{
    /// <summary>Accepted by every Azure cloud and by Azurite 3.37 (which knows versions up to 2026-06-06).</summary>
    private const string ServiceVersion = "2021-12-02";
    private const string StorageScope = "https://storage.azure.com/.default";
    private const int MaxPageSize = 5000;

    private readonly HttpPipeline _pipeline;
    private readonly string? _sharedAccessSignature;

    private BlobRestClient(Uri accountEndpoint, HttpPipeline pipeline, string? sharedAccessSignature)
    {
        AccountEndpoint = accountEndpoint;
        _pipeline = pipeline;
        _sharedAccessSignature = string.IsNullOrEmpty(sharedAccessSignature) ? null : sharedAccessSignature.TrimStart('?');
    }

    /// <summary>The account's Blob endpoint: <c>https://acme.blob.core.windows.net</c> or <c>http://127.0.0.1:10000/devstoreaccount1</c>.</summary>
    public Uri AccountEndpoint { get; }

    /// <summary>Signs with the account key when the connection string has one, else appends its shared access signature.</summary>
    public static BlobRestClient FromConnectionString(string connectionString, BlobRestClientOptions? options = null, TimeProvider? timeProvider = null)
    {
        var parsed = StorageConnectionString.Parse(connectionString);
        var endpoint = parsed.RequireBlobEndpoint();
        HttpPipelinePolicy[] auth = parsed.AccountKey is { } key
            ? [new SharedKeyAuthenticationPolicy(parsed.AccountName!, key, timeProvider ?? TimeProvider.System)]
            : [];
        return new BlobRestClient(endpoint, Build(options, auth), parsed.AccountKey is null ? parsed.SharedAccessSignature : null);
    }

    /// <summary>Signs in with Microsoft Entra ID; the identity needs a data-plane role such as Storage Blob Data Reader.</summary>
    public static BlobRestClient FromCredential(Uri accountEndpoint, TokenCredential credential, BlobRestClientOptions? options = null) =>
        new(accountEndpoint, Build(options, [new BearerTokenAuthenticationPolicy(credential, StorageScope)]), null);

    /// <summary>Appends the shared access signature (with or without its leading <c>?</c>) to every request.</summary>
    public static BlobRestClient FromSharedAccessSignature(Uri accountEndpoint, string sharedAccessSignature, BlobRestClientOptions? options = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(sharedAccessSignature);
        return new BlobRestClient(accountEndpoint, Build(options, []), sharedAccessSignature);
    }

    private static HttpPipeline Build(BlobRestClientOptions? options, HttpPipelinePolicy[] perRetryPolicies) =>
        HttpPipelineBuilder.Build(options ?? new BlobRestClientOptions(), [], perRetryPolicies, new ResponseClassifier());

    /// <summary>Creates the container; true when it was created, false when it already existed.</summary>
    public async Task<Response<bool>> CreateContainerIfNotExistsAsync(string container, CancellationToken cancellationToken)
    {
        using var message = CreateMessage(RequestMethod.Put, container, null, "restype=container");
        await _pipeline.SendAsync(message, cancellationToken).ConfigureAwait(false);
        var response = message.Response;
        return response.Status switch
        {
            (int)HttpStatusCode.Created => Response.FromValue(true, response),
            (int)HttpStatusCode.Conflict when ErrorCode(response) == "ContainerAlreadyExists" => Response.FromValue(false, response),
            _ => throw BlobServiceError.Failure(response, $"creating container '{container}'"),
        };
    }

    /// <summary>The blob's size and version; null when it does not exist.</summary>
    public async Task<BlobItem?> GetPropertiesAsync(string container, string blob, CancellationToken cancellationToken)
    {
        using var message = CreateMessage(RequestMethod.Head, container, blob, null);
        await _pipeline.SendAsync(message, cancellationToken).ConfigureAwait(false);
        var response = message.Response;
        return response.Status switch
        {
            (int)HttpStatusCode.OK => new BlobItem(blob, response.Headers.ContentLengthLong ?? 0, ETagOf(response)),
            (int)HttpStatusCode.NotFound => null,
            _ => throw BlobServiceError.Failure(response, $"reading the properties of blob '{container}/{blob}'"),
        };
    }

    /// <summary>Every blob whose name starts with <paramref name="prefix"/>, in the service's (lexicographic) order.</summary>
    public IAsyncEnumerable<BlobItem> ListAsync(string container, string? prefix, CancellationToken cancellationToken) =>
        ListAsync(container, prefix, MaxPageSize, cancellationToken);

    /// <summary>As <see cref="ListAsync(string, string?, CancellationToken)"/>, asking for pages of at most <paramref name="pageSize"/> blobs.</summary>
    public async IAsyncEnumerable<BlobItem> ListAsync(string container, string? prefix, int pageSize, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(pageSize);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(pageSize, MaxPageSize);
        string? marker = null;
        do
        {
            var query = "restype=container&comp=list"
                + (string.IsNullOrEmpty(prefix) ? "" : "&prefix=" + Uri.EscapeDataString(prefix))
                + (marker is null ? "" : "&marker=" + Uri.EscapeDataString(marker))
                + string.Create(CultureInfo.InvariantCulture, $"&maxresults={pageSize}");
            BlobListPage page;
            using (var message = CreateMessage(RequestMethod.Get, container, null, query))
            {
                await _pipeline.SendAsync(message, cancellationToken).ConfigureAwait(false);
                page = message.Response.Status == (int)HttpStatusCode.OK
                    ? BlobListPage.Parse(message.Response.ContentStream!)
                    : throw BlobServiceError.Failure(message.Response, $"listing container '{container}'");
            }

            foreach (var blob in page.Blobs)
            {
                yield return blob;
            }

            marker = page.NextMarker;
        }
        while (marker is not null);
    }

    /// <summary>
    /// Reads bytes from <paramref name="offset"/> into <paramref name="buffer"/>, as long as the blob is still at
    /// <paramref name="etag"/>; returns how many were read, less than the buffer only at the end of the blob and 0
    /// past it. A blob changed since is a <see cref="RequestFailedException"/> with status 412 saying so.
    /// </summary>
    public async Task<int> ReadRangeAsync(string container, string blob, long offset, Memory<byte> buffer, ETag etag, CancellationToken cancellationToken)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(offset);
        if (buffer.IsEmpty)
        {
            return 0;
        }

        using var message = CreateMessage(RequestMethod.Get, container, blob, null);
        // Streamed straight into the caller's buffer instead of buffered whole and copied.
        message.BufferResponse = false;
        message.Request.Headers.SetValue("x-ms-range", string.Create(CultureInfo.InvariantCulture, $"bytes={offset}-{offset + buffer.Length - 1}"));
        message.Request.Headers.SetValue(HttpHeader.Names.IfMatch, etag.ToString("H"));
        await _pipeline.SendAsync(message, cancellationToken).ConfigureAwait(false);
        var response = message.Response;
        var action = string.Create(CultureInfo.InvariantCulture, $"reading blob '{container}/{blob}' at offset {offset:N0}");
        switch (response.Status)
        {
            case (int)HttpStatusCode.PartialContent:
                return await FillAsync(response.ContentStream!, buffer, cancellationToken).ConfigureAwait(false);
            case (int)HttpStatusCode.RequestedRangeNotSatisfiable:
                return 0;
            case (int)HttpStatusCode.PreconditionFailed:
                throw BlobServiceError.Failure(response, action, $"The blob changed while it was being read: it is no longer the version (ETag {etag}) the read started from.");
            default:
                throw BlobServiceError.Failure(response, action);
        }
    }

    /// <summary>The whole blob and its version, for small files such as a checkpoint; null when it does not exist.</summary>
    public async Task<BlobDownload?> DownloadAsync(string container, string blob, CancellationToken cancellationToken)
    {
        using var message = CreateMessage(RequestMethod.Get, container, blob, null);
        await _pipeline.SendAsync(message, cancellationToken).ConfigureAwait(false);
        var response = message.Response;
        return response.Status switch
        {
            // Copied: the buffered content belongs to the response, which goes with the message.
            (int)HttpStatusCode.OK => new BlobDownload(BinaryData.FromBytes(response.Content.ToArray()), ETagOf(response)),
            (int)HttpStatusCode.NotFound => null,
            _ => throw BlobServiceError.Failure(response, $"downloading blob '{container}/{blob}'"),
        };
    }

    /// <summary>Writes the blob whole (a block blob, replacing any blob of that name) and returns its new version.</summary>
    public async Task<BlobItem> UploadAsync(string container, string blob, BinaryData content, string contentType, CancellationToken cancellationToken)
    {
        using var message = CreateMessage(RequestMethod.Put, container, blob, null);
        message.Request.Headers.SetValue("x-ms-blob-type", "BlockBlob");
        message.Request.Headers.SetValue(HttpHeader.Names.ContentType, contentType);
        message.Request.Content = RequestContent.Create(content);
        await _pipeline.SendAsync(message, cancellationToken).ConfigureAwait(false);
        var response = message.Response;
        return response.Status == (int)HttpStatusCode.Created
            ? new BlobItem(blob, content.ToMemory().Length, ETagOf(response))
            : throw BlobServiceError.Failure(response, $"uploading blob '{container}/{blob}'");
    }

    private HttpMessage CreateMessage(RequestMethod method, string container, string? blob, string? query)
    {
        ArgumentException.ThrowIfNullOrEmpty(container);
        var uri = AccountEndpoint.AbsoluteUri.TrimEnd('/') + "/" + Uri.EscapeDataString(container);
        if (blob is not null)
        {
            ArgumentException.ThrowIfNullOrEmpty(blob);
            // System.Uri would fold these segments away and the request would name another blob.
            if (BlobPathEncoding.HasDotSegment(blob))
            {
                throw new ArgumentException($"blob name '{blob}' has a '.' or '..' segment, which a URL cannot carry.", nameof(blob));
            }

            uri += "/" + BlobPathEncoding.Escape(blob);
        }

        var fullQuery = string.Join('&', new[] { query, _sharedAccessSignature }.Where(part => !string.IsNullOrEmpty(part)));
        var message = _pipeline.CreateMessage();
        message.Request.Method = method;
        message.Request.Uri.Reset(new Uri(fullQuery.Length == 0 ? uri : uri + "?" + fullQuery));
        message.Request.Headers.SetValue("x-ms-version", ServiceVersion);
        return message;
    }

    private static async Task<int> FillAsync(Stream content, Memory<byte> buffer, CancellationToken cancellationToken)
    {
        var filled = 0;
        int read;
        while (filled < buffer.Length && (read = await content.ReadAsync(buffer[filled..], cancellationToken).ConfigureAwait(false)) > 0)
        {
            filled += read;
        }

        return filled;
    }

    private static string? ErrorCode(Response response) =>
        response.Headers.TryGetValue("x-ms-error-code", out var code) ? code : null;

    private static ETag ETagOf(Response response) =>
        BlobItem.ParseETag(response.Headers.TryGetValue("ETag", out var etag) ? etag : "");
}
