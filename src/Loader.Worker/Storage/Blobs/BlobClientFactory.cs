using Azure;
using Azure.Core;
using Azure.Identity;
using Azure.Storage.Blobs;

namespace Loader.Worker.Storage.Blobs;

/// <summary>
/// The Blob container client for an address, signed in the way the settings allow: the URL's own shared access
/// signature first, then <c>Loader:Blob:ConnectionString</c> (whose account must be the URL's), then
/// <c>DefaultAzureCredential</c>. Service clients are shared per account and way of signing in.
/// </summary>
internal sealed class BlobClientFactory(BlobOptions options, Func<TokenCredential>? credential = null)
{
    // Reads and small whole-blob writes are idempotent, so the SDK may retry them: a blip mid-input must not end the load.
    private const int ReadRetries = 5;

    // Finding the input (its properties, the listing of a prefix) comes before anything is read or written: an endpoint
    // that does not answer is said in about 1.5 s rather than the 15 s of a read's retries. What is wrong then is
    // nearly always the address or a service not running, which more tries do not mend, and running again costs nothing.
    private const int LookupRetries = 2;

    private readonly Lock _lock = new();
    private readonly Dictionary<string, BlobServiceClient> _clients = new(StringComparer.Ordinal);
    private TokenCredential? _credential;

    /// <summary>Whether a setting names a blob (an http(s) URL) rather than a local path.</summary>
    public static bool IsUrl(string? setting) =>
        setting is not null && (setting.StartsWith("https://", StringComparison.OrdinalIgnoreCase) || setting.StartsWith("http://", StringComparison.OrdinalIgnoreCase));

    /// <summary>A client for <paramref name="address"/>'s container.</summary>
    /// <exception cref="InvalidOperationException">The connection string is for another account; the message names both, never the key.</exception>
    public BlobContainerClient For(BlobAddress address) => For(address, ReadRetries);

    /// <summary>A client for <paramref name="address"/>'s container that gives up sooner: for finding an input before the load starts.</summary>
    /// <exception cref="InvalidOperationException">The connection string is for another account; the message names both, never the key.</exception>
    public BlobContainerClient ForLookup(BlobAddress address) => For(address, LookupRetries);

    private BlobContainerClient For(BlobAddress address, int retries)
    {
        lock (_lock)
        {
            var key = $"{address.AccountEndpoint}|{address.SharedAccessSignature}|{retries}";
            if (!_clients.TryGetValue(key, out var client))
            {
                client = Create(address, retries);
                _clients[key] = client;
            }

            return client.GetBlobContainerClient(address.Container);
        }
    }

    private BlobServiceClient Create(BlobAddress address, int retries)
    {
        var clientOptions = StoragePipelineDefaults.Apply(new BlobClientOptions(), maxConnections: 16, retries, TimeSpan.FromSeconds(100));
        clientOptions.Retry.Mode = RetryMode.Exponential;
        clientOptions.Retry.Delay = TimeSpan.FromMilliseconds(500);

        if (address.SharedAccessSignature is { } signature)
        {
            return new BlobServiceClient(address.AccountEndpoint, new AzureSasCredential(signature), clientOptions);
        }

        if (!string.IsNullOrWhiteSpace(options.ConnectionString))
        {
            var client = new BlobServiceClient(options.ConnectionString, clientOptions);
            // The service URI carries the connection string's signature, if it has one: compared and shown without it.
            var endpoint = new Uri(client.Uri.GetLeftPart(UriPartial.Path));
            if (!SameEndpoint(endpoint, address.AccountEndpoint))
            {
                throw new InvalidOperationException(
                    $"'{address.Display}' is in account {address.AccountEndpoint}, Loader:Blob:ConnectionString is for {endpoint}.");
            }

            return client;
        }

        _credential ??= credential?.Invoke() ?? new DefaultAzureCredential();
        return new BlobServiceClient(address.AccountEndpoint, _credential, clientOptions);
    }

    private static bool SameEndpoint(Uri left, Uri right) =>
        string.Equals(left.AbsoluteUri.TrimEnd('/'), right.AbsoluteUri.TrimEnd('/'), StringComparison.OrdinalIgnoreCase);
}
