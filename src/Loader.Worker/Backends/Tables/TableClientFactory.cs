using System.Data.Common;
using Azure;
using Azure.Core;
using Azure.Core.Pipeline;
using Azure.Data.Tables;
using Azure.Data.Tables.Sas;
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
    /// What sends the batches when <c>Loader:Tables:Writer</c> is <see cref="TableWriter.Direct"/>: a pipeline built from
    /// the same <paramref name="options"/> as <paramref name="client"/> (one connection pool, no retries, the headers
    /// policy), signed as the settings say. Null when the batches go through the client itself: the Sdk writer, or a
    /// Cosmos DB for Table endpoint, which keeps the SDK's own path (its Cosmos DB handling; no Cosmos DB for Table
    /// account can be reached from the tests to prove another).
    /// </summary>
    public static TableTransactionSender? CreateSender(
        TablesOptions tables, TableClient client, TableClientOptions options, Func<TokenCredential> credential, TimeProvider timeProvider)
    {
        var endpoint = tables.ServiceEndpoint();
        if (tables.Writer == TableWriter.Sdk || IsCosmos(endpoint))
        {
            return null;
        }

        TableSignature signature;
        if (!string.IsNullOrWhiteSpace(tables.Endpoint))
        {
            if (TablesOptions.SplitSignature(tables.Endpoint).Signature is not { } given)
            {
                var bearer = new BearerTokenAuthenticationPolicy(credential(), ScopeFor(endpoint));
                return new TableTransactionSender(HttpPipelineBuilder.Build(options, [], [bearer], new ResponseClassifier()), endpoint, tables.Table, null);
            }

            signature = TableSignature.Given(given);
        }
        else if (SharedAccessSignature(tables.EffectiveConnectionString) is { } given)
        {
            signature = TableSignature.Given(given);
        }
        else
        {
            // An account key: an account SAS for entities (the SDK's own builder) signs the requests, so none needs an HMAC.
            var service = new TableServiceClient(tables.EffectiveConnectionString);
            signature = TableSignature.FromKey(
                expiresOn => service.GenerateSasUri(
                    TableAccountSasPermissions.Add | TableAccountSasPermissions.Update | TableAccountSasPermissions.Delete,
                    TableAccountSasResourceTypes.Object,
                    expiresOn).Query,
                timeProvider);
        }

        return new TableTransactionSender(HttpPipelineBuilder.Build(options, [], [], new ResponseClassifier()), endpoint, tables.Table, signature);
    }

    /// <summary>The <c>SharedAccessSignature</c> of a connection string, if it has one (then it has no account key).</summary>
    private static string? SharedAccessSignature(string connectionString)
    {
        var builder = new DbConnectionStringBuilder { ConnectionString = connectionString };
        return builder.TryGetValue("SharedAccessSignature", out var signature) && signature is string { Length: > 0 } text ? text : null;
    }

    /// <summary>
    /// Cosmos DB for Table, as the SDK tells it: a <c>table.cosmos</c> (or older <c>table.cosmosdb</c>) host, or the
    /// emulator on localhost at a port other than Azurite's 10002.
    /// </summary>
    public static bool IsCosmos(Uri endpoint) =>
        endpoint.Host.Contains(".table.cosmos", StringComparison.OrdinalIgnoreCase)
        || (endpoint.Host.Equals("localhost", StringComparison.OrdinalIgnoreCase) && endpoint.Port != 10002);

    /// <summary>The Entra ID scope of Azure Storage in the endpoint's cloud (<see cref="AudienceFor"/>).</summary>
    public static string ScopeFor(Uri endpoint) => AudienceFor(endpoint) switch
    {
        var audience when audience == TableAudience.AzureChina => "https://storage.azure.cn/.default",
        var audience when audience == TableAudience.AzureGovernment => "https://storage.azure.us/.default",
        _ => "https://storage.azure.com/.default",
    };

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
