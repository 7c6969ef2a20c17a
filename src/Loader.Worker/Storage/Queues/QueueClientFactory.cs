using Azure;
using Azure.Core;
using Azure.Identity;
using Azure.Storage.Queues;
using Loader.Worker.Storage.Blobs;

namespace Loader.Worker.Storage.Queues;

/// <summary>
/// The client of a queue, signed in as blobs are (<see cref="BlobClientFactory"/>): the URL's own shared access
/// signature, then <c>Loader:Blob:ConnectionString</c> (its account must be the URL's; Azurite's names all three
/// services), then <c>DefaultAzureCredential</c> (in Azure the job's managed identity, which needs Storage Queue Data
/// Contributor on the queues).
/// </summary>
internal sealed class QueueClientFactory(BlobOptions options, Func<TokenCredential>? credential = null)
{
    // Every call the loader makes is safe to repeat but Put Message, whose repeat is a duplicate the workers tell apart.
    private const int Retries = 5;

    private readonly Lock _lock = new();
    private TokenCredential? _credential;

    /// <exception cref="InvalidOperationException">The connection string is for another account; the message names both, never the key.</exception>
    public QueueClient For(QueueAddress address)
    {
        var clientOptions = StoragePipelineDefaults.Apply(new QueueClientOptions { MessageEncoding = QueueMessageEncoding.None }, maxConnections: 4, Retries, TimeSpan.FromSeconds(60));
        clientOptions.Retry.Mode = RetryMode.Exponential;
        clientOptions.Retry.Delay = TimeSpan.FromMilliseconds(500);
        var queueUri = new Uri($"{address.AccountEndpoint.AbsoluteUri.TrimEnd('/')}/{address.Name}");
        if (address.SharedAccessSignature is { } signature)
        {
            return new QueueClient(queueUri, new AzureSasCredential(signature), clientOptions);
        }

        if (!string.IsNullOrWhiteSpace(options.ConnectionString))
        {
            var service = new QueueServiceClient(options.ConnectionString, clientOptions);
            var endpoint = new Uri(service.Uri.GetLeftPart(UriPartial.Path));
            if (!string.Equals(endpoint.AbsoluteUri.TrimEnd('/'), address.AccountEndpoint.AbsoluteUri.TrimEnd('/'), StringComparison.OrdinalIgnoreCase))
            {
                throw new InvalidOperationException(
                    $"queue '{address.Display}' is in account {address.AccountEndpoint}, Loader:Blob:ConnectionString is for the queue endpoint {endpoint}.");
            }

            return service.GetQueueClient(address.Name);
        }

        lock (_lock)
        {
            _credential ??= credential?.Invoke() ?? new DefaultAzureCredential();
        }

        return new QueueClient(queueUri, _credential, clientOptions);
    }
}
