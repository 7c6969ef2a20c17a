using Azure;
using Azure.Core;
using Azure.Data.Tables;
using Loader.Worker.Storage;

namespace Loader.Worker.Backends.Tables;

/// <summary>
/// The <see cref="TableClient"/> for <c>Loader:Tables</c>, signed in the way the settings say: a connection string
/// (Azurite, account key, or a shared access signature), an endpoint whose URL carries a shared access signature,
/// or an endpoint reached with a <see cref="TokenCredential"/> (Entra ID) whose token is for the right audience.
/// </summary>
internal static class TableClientFactory
{
    public static TableClient Create(TablesOptions tables, TableClientOptions options, Func<TokenCredential> credential)
    {
        if (string.IsNullOrWhiteSpace(tables.Endpoint))
        {
            return new TableClient(tables.EffectiveConnectionString, tables.Table, options);
        }

        var (endpoint, signature) = TablesOptions.SplitSignature(tables.Endpoint);
        if (signature is not null)
        {
            // This constructor takes the table's own URL.
            return new TableClient(new Uri(endpoint.AbsoluteUri.TrimEnd('/') + "/" + tables.Table), new AzureSasCredential(signature), options);
        }

        options.Audience = AudienceFor(endpoint);
        return new TableClient(endpoint, tables.Table, credential(), options);
    }

    /// <summary>
    /// One attempt per call: the SDK's retries are off, so every throttled answer reaches the loader, which counts it
    /// and waits what the service asked (<c>Loader:Retry</c>).
    /// </summary>
    /// <param name="maxConnections">Connections to the endpoint: at least the batches in flight.</param>
    /// <param name="attemptTimeout"><c>Loader:Retry:AttemptTimeout</c>, the loader's own limit on one request.</param>
    public static TableClientOptions Options(int maxConnections, TimeSpan attemptTimeout) =>
        // The SDK's network timeout is set past the loader's attempt timeout on purpose: the loader's limit is the one
        // that cancels a slow request (and reports it as the loader's timeout, counted and retried the same way
        // whatever the service); the SDK's only backs it up, e.g. for a body that stalls after the call returned.
        // Left at the SDK's default of 100 s it would cut requests short under AttemptTimeout settings above 100 s; at
        // the same value as AttemptTimeout the two raced. Should it fire anyway, the adapter reports it as no answer.
        WithHeadersPolicy(StoragePipelineDefaults.Apply(new TableClientOptions(), maxConnections, maxRetries: 0, attemptTimeout + TimeSpan.FromSeconds(30)));

    private static TableClientOptions WithHeadersPolicy(TableClientOptions options)
    {
        options.AddPolicy(new ResponseHeadersPolicy(), HttpPipelinePosition.PerRetry);
        return options;
    }

    /// <summary>
    /// The Entra ID audience of a Table endpoint's cloud. Within a cloud the SDK picks the service's own scope from the
    /// host: <c>https://cosmos.azure.com/.default</c> for Cosmos DB for Table (<c>*.table.cosmos.azure.com</c>),
    /// <c>https://storage.azure.com/.default</c> for Azure Storage; sovereign clouds have their own of each.
    /// </summary>
    public static TableAudience AudienceFor(Uri endpoint)
    {
        var host = endpoint.Host;
        if (host.EndsWith(".chinacloudapi.cn", StringComparison.OrdinalIgnoreCase) || host.EndsWith(".azure.cn", StringComparison.OrdinalIgnoreCase))
        {
            return TableAudience.AzureChina;
        }

        return host.EndsWith(".usgovcloudapi.net", StringComparison.OrdinalIgnoreCase) || host.EndsWith(".azure.us", StringComparison.OrdinalIgnoreCase)
            ? TableAudience.AzureGovernment
            : TableAudience.AzurePublicCloud;
    }
}
