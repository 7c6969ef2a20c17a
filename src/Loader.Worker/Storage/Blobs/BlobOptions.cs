using System.ComponentModel.DataAnnotations;
using Azure.Storage.Blobs;
using Loader.Abstractions;

namespace Loader.Worker.Storage.Blobs;

/// <summary>How the loader signs in to blobs it reads and writes (<c>Loader:Blob</c>): the input, and a checkpoint, report or rejects file given as a blob URL.</summary>
internal sealed class BlobOptions
{
    /// <summary>
    /// A storage connection string with the account key or a shared access signature, e.g. for Azurite. When empty,
    /// a blob URL with a shared access signature uses that, and any other signs in with <c>DefaultAzureCredential</c>
    /// (a managed identity in Azure; <c>AZURE_CLIENT_ID</c> picks a user-assigned one).
    /// </summary>
    [Accepts("a storage connection string (AccountName and AccountKey, BlobEndpoint and SharedAccessSignature, or UseDevelopmentStorage=true); optional")]
    public string? ConnectionString { get; set; }

    /// <summary>How much of an input blob one request reads; the next block is fetched while one is parsed.</summary>
    // The loader's own limits: below 64 KiB a blob takes too many requests, and the block read ahead is held in memory.
    [Range(64 * 1024, 100 * 1024 * 1024)]
    public int ReadBlockSize { get; set; } = BlobReadStream.DefaultBlockSize;

    /// <summary>
    /// Reads a connection string the way the SDK will; returns why it cannot, in words that never quote the string
    /// (it may hold a key), or null.
    /// </summary>
    public static string? CheckConnectionString(string connectionString)
    {
        try
        {
            _ = new BlobServiceClient(connectionString);
            return null;
        }
        catch (FormatException exception)
        {
            // The SDK's format messages name the rule broken (e.g. a key that is not base64), never the value.
            return exception.Message;
        }
        catch (Exception exception) when (exception is ArgumentException or InvalidOperationException or NullReferenceException)
        {
            // These may quote a segment of the string, which may be a key (and the SDK meets a Table-only string with a
            // null reference): not repeated.
            return "expected Name=Value segments with AccountName and AccountKey (optionally BlobEndpoint or EndpointSuffix), "
                + "BlobEndpoint and SharedAccessSignature, or UseDevelopmentStorage=true.";
        }
    }
}
