using Loader.Worker.Storage.Blobs;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Storage.Blobs;

/// <summary>One Azurite with its Blob service for a test class; each test works in its own container.</summary>
public sealed class BlobAzuriteFixture : IAsyncLifetime
{
    private static int s_containers;
    private AzuriteProcess? _azurite;

    public AzuriteProcess Azurite => _azurite ?? throw new InvalidOperationException("Azurite has not started");

    public BlobRestClient Client { get; private set; } = null!;

    public async ValueTask InitializeAsync()
    {
        _azurite = await AzuriteProcess.StartAsync(withBlob: true, cancellationToken: TestContext.Current.CancellationToken);
        Client = BlobRestClient.FromConnectionString(_azurite.ConnectionString);
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
        await Client.CreateContainerIfNotExistsAsync(container, cancellationToken);
        return container;
    }

    /// <summary>Bytes that differ from one seed to another, so a read from the wrong place or version shows.</summary>
    public static byte[] RandomBytes(int length, int seed)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        return bytes;
    }
}
