using Azure.Storage.Blobs;
using Azure.Storage.Blobs.Models;
using Loader.Worker.Storage.Blobs;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Storage.Blobs;

/// <summary>One Azurite with its Blob service for a test class; each test works in its own container.</summary>
public sealed class BlobAzuriteFixture : IAsyncLifetime
{
    private static int s_containers;
    private AzuriteProcess? _azurite;

    public AzuriteProcess Azurite => _azurite ?? throw new InvalidOperationException("Azurite has not started");

    /// <summary>The SDK's client for the emulator's Blob service, signed with the account key.</summary>
    public BlobServiceClient Client { get; private set; } = null!;

    public async ValueTask InitializeAsync()
    {
        _azurite = await AzuriteProcess.StartAsync(withBlob: true, cancellationToken: TestContext.Current.CancellationToken);
        Client = new BlobServiceClient(_azurite.ConnectionString);
    }

    public async ValueTask DisposeAsync()
    {
        if (_azurite is not null)
        {
            await _azurite.DisposeAsync();
        }
    }

    /// <summary>A new container no other test uses.</summary>
    public async Task<string> CreateContainerAsync(CancellationToken cancellationToken)
    {
        var container = $"c{Environment.ProcessId}-{Interlocked.Increment(ref s_containers)}";
        await Client.GetBlobContainerClient(container).CreateIfNotExistsAsync(cancellationToken: cancellationToken);
        return container;
    }

    /// <summary>Writes a blob whole, replacing any of that name, and returns it as an input sees it.</summary>
    internal async Task<InputBlob> UploadAsync(string container, string name, BinaryData content, string contentType, CancellationToken cancellationToken)
    {
        var uploaded = await Client.GetBlobContainerClient(container).GetBlobClient(name)
            .UploadAsync(content, new BlobUploadOptions { HttpHeaders = new BlobHttpHeaders { ContentType = contentType } }, cancellationToken);
        return InputBlob.Of(name, content.ToMemory().Length, uploaded.Value.ETag);
    }

    /// <summary>The SDK's client for one blob.</summary>
    public BlobClient Blob(string container, string name) => Client.GetBlobContainerClient(container).GetBlobClient(name);

    /// <summary>Bytes that differ from one seed to another, so a read from the wrong place or version shows.</summary>
    public static byte[] RandomBytes(int length, int seed)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        return bytes;
    }
}
