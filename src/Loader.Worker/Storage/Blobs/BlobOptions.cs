namespace Loader.Worker.Storage.Blobs;

/// <summary>How the loader signs in to blobs it reads and writes (<c>Loader:Blob</c>): the input, and a checkpoint, report or rejects file given as a blob URL.</summary>
public sealed class BlobOptions
{
    /// <summary>
    /// A storage connection string with the account key or a shared access signature, e.g. for Azurite. When empty,
    /// a blob URL with a shared access signature uses that, and any other signs in with <c>DefaultAzureCredential</c>
    /// (a managed identity in Azure; <c>AZURE_CLIENT_ID</c> picks a user-assigned one).
    /// </summary>
    public string? ConnectionString { get; set; }

    /// <summary>How much of an input blob one request reads; the next block is fetched while one is parsed.</summary>
    public int ReadBlockSize { get; set; } = BlobReadStream.DefaultBlockSize;
}
