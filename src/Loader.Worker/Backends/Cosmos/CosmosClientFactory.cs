using Azure.Identity;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>
/// The one <see cref="CosmosClient"/> of a load, tuned for bulk writing: the SDK's 429 retries off (the loader
/// retries and counts), no response bodies on writes, connection limits sized to the parallelism.
/// </summary>
internal static class CosmosClientFactory
{
    public static CosmosClient Create(CosmosOptions options, int maxParallelBatches, TimeSpan requestTimeout)
    {
        var endpoint = string.IsNullOrWhiteSpace(options.Endpoint)
            ? CosmosConnectionString.Endpoint(options.ConnectionString!)
            : new Uri(options.Endpoint);
        var local = CosmosConnectionString.IsLocal(endpoint);
        var clientOptions = new CosmosClientOptions
        {
            ApplicationName = "bulk-loader",
            ConnectionMode = options.ConnectionMode == CosmosConnectionMode.Gateway ? ConnectionMode.Gateway : ConnectionMode.Direct,
            AllowBulkExecution = options.Mode == CosmosWriteMethod.Bulk,
            MaxRetryAttemptsOnRateLimitedRequests = 0,
            MaxRetryWaitTimeOnRateLimitedRequests = TimeSpan.Zero,
            EnableContentResponseOnWrite = false,
            GatewayModeMaxConnectionLimit = Math.Max(50, maxParallelBatches * 2),
            RequestTimeout = requestTimeout,
            // The emulator advertises itself as localhost; following other endpoints would go nowhere.
            LimitToEndpoint = local,
            // On the client rather than on each request, so they hold for the requests Bulk mode packs too.
            PriorityLevel = options.PriorityLevel switch
            {
                CosmosPriorityLevel.High => PriorityLevel.High,
                CosmosPriorityLevel.Low => PriorityLevel.Low,
                _ => null,
            },
            ThroughputBucket = options.ThroughputBucket,
        };

        if (clientOptions.ConnectionMode == ConnectionMode.Direct)
        {
            clientOptions.MaxRequestsPerTcpConnection = 30;
            clientOptions.OpenTcpConnectionTimeout = TimeSpan.FromSeconds(5);
        }

        if (options.TrustEmulatorCertificate && local)
        {
            // The emulator serves a self-signed certificate; only a local endpoint is trusted this way.
            clientOptions.ServerCertificateCustomValidationCallback = (_, _, _) => true;
        }

        return string.IsNullOrWhiteSpace(options.Endpoint)
            ? new CosmosClient(options.ConnectionString, clientOptions)
            : new CosmosClient(options.Endpoint, new DefaultAzureCredential(), clientOptions);
    }
}
