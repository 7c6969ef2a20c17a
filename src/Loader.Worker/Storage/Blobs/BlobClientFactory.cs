using Azure.Core;
using Azure.Identity;

namespace Loader.Worker.Storage.Blobs;

/// <summary>
/// The Blob client for an address, signed in the way the settings allow: the URL's own shared access signature
/// first, then <c>Loader:Blob:ConnectionString</c> (whose account must be the URL's), then
/// <c>DefaultAzureCredential</c>. Clients are shared per account and way of signing in.
/// </summary>
public sealed class BlobClientFactory(BlobOptions options, Func<TokenCredential>? credential = null)
{
    private const int ReadRetries = 5;

    private readonly Lock _lock = new();
    private readonly Dictionary<string, BlobRestClient> _clients = new(StringComparer.Ordinal);
    private TokenCredential? _credential;

    /// <summary>Whether a setting names a blob (an http(s) URL) rather than a local path.</summary>
    public static bool IsUrl(string? setting) =>
        setting is not null && (setting.StartsWith("https://", StringComparison.OrdinalIgnoreCase) || setting.StartsWith("http://", StringComparison.OrdinalIgnoreCase));

    /// <summary>A client for <paramref name="address"/>'s account.</summary>
    /// <exception cref="InvalidOperationException">The connection string is for another account; the message names both, never the key.</exception>
    public BlobRestClient For(BlobAddress address)
    {
        lock (_lock)
        {
            var key = $"{address.AccountEndpoint}|{address.SharedAccessSignature}";
            if (!_clients.TryGetValue(key, out var client))
            {
                client = Create(address);
                _clients[key] = client;
            }

            return client;
        }
    }

    private BlobRestClient Create(BlobAddress address)
    {
        // Reads and small writes are idempotent, so the pipeline may retry them; a blip mid-input must not end the load.
        var clientOptions = new BlobRestClientOptions();
        clientOptions.Retry.MaxRetries = ReadRetries;
        clientOptions.Retry.Mode = RetryMode.Exponential;
        clientOptions.Retry.Delay = TimeSpan.FromMilliseconds(500);

        if (address.SharedAccessSignature is { } signature)
        {
            return BlobRestClient.FromSharedAccessSignature(address.AccountEndpoint, signature, clientOptions);
        }

        if (!string.IsNullOrWhiteSpace(options.ConnectionString))
        {
            var client = BlobRestClient.FromConnectionString(options.ConnectionString, clientOptions);
            if (!SameEndpoint(client.AccountEndpoint, address.AccountEndpoint))
            {
                throw new InvalidOperationException(
                    $"'{address.Display}' is in account {address.AccountEndpoint}, Loader:Blob:ConnectionString is for {client.AccountEndpoint}.");
            }

            return client;
        }

        _credential ??= credential?.Invoke() ?? new DefaultAzureCredential();
        return BlobRestClient.FromCredential(address.AccountEndpoint, _credential, clientOptions);
    }

    private static bool SameEndpoint(Uri left, Uri right) =>
        string.Equals(left.AbsoluteUri.TrimEnd('/'), right.AbsoluteUri.TrimEnd('/'), StringComparison.OrdinalIgnoreCase);
}
