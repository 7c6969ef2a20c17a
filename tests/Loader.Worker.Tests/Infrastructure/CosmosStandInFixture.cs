using System.Text.Json;
using Loader.CosmosStandIn;
using Loader.Worker.Backends.Cosmos;
using Loader.Worker.Hosting;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>
/// One cosmosdb-server process and one <see cref="StandInHost"/> in front of it (no budget) for the whole test run:
/// the real SDK in Gateway mode reaches Cosmos DB's REST protocol and its binary batches through it. Each test
/// works in its own container; a test that needs throttling starts its own stand-in on the same cosmosdb-server.
/// </summary>
public sealed class CosmosStandInFixture : IAsyncLifetime
{
    /// <summary>The key clients sign with; neither the stand-in nor cosmosdb-server checks it.</summary>
    public const string Key = StandInHost.EmulatorKey;

    public const string Database = "loads";

    private static int s_containers;
    private CosmosDbServerProcess? _server;
    private StandInHost? _standIn;
    private CosmosClient? _client;

    public CosmosDbServerProcess Server => _server ?? throw new InvalidOperationException("cosmosdb-server has not started");

    public StandInHost StandIn => _standIn ?? throw new InvalidOperationException("the stand-in has not started");

    /// <summary>The stand-in's connection string, as a user would give it to the loader.</summary>
    public string ConnectionString => StandIn.ConnectionString(Key);

    /// <summary>An SDK client on the stand-in, for preparing and reading back containers.</summary>
    public CosmosClient Client => _client ?? throw new InvalidOperationException("the stand-in has not started");

    public async ValueTask InitializeAsync()
    {
        _server = await CosmosDbServerProcess.StartAsync();
        _standIn = await StartStandInAsync(new StandInOptions());
        _client = CreateClient(ConnectionString);
        await _client.CreateDatabaseIfNotExistsAsync(Database);
    }

    public async ValueTask DisposeAsync()
    {
        _client?.Dispose();
        if (_standIn is not null)
        {
            await _standIn.DisposeAsync();
        }

        if (_server is not null)
        {
            await _server.DisposeAsync();
        }
    }

    /// <summary>Another stand-in on the same cosmosdb-server, e.g. with a request-unit budget; the caller disposes it.</summary>
    public Task<StandInHost> StartStandInAsync(StandInOptions options, CancellationToken cancellationToken = default) =>
        StandInHost.StartAsync(options with { Upstream = Server.Endpoint }, cancellationToken);

    /// <summary>A cosmosdb-server and a stand-in of a test's own, for a load large enough to slow the shared ones.</summary>
    public static async Task<OwnStandIn> StartOwnAsync(CancellationToken cancellationToken)
    {
        var server = await CosmosDbServerProcess.StartAsync(cancellationToken);
        try
        {
            return new OwnStandIn(server, await StandInHost.StartAsync(new StandInOptions { Upstream = server.Endpoint }, cancellationToken), ownsServer: true);
        }
        catch
        {
            await server.DisposeAsync();
            throw;
        }
    }

    /// <summary>A stand-in of a test's own on the shared cosmosdb-server, so its counters are the test's alone.</summary>
    public async Task<OwnStandIn> StartOwnStandInAsync(CancellationToken cancellationToken) =>
        new(Server, await StartStandInAsync(new StandInOptions(), cancellationToken), ownsServer: false);

    /// <summary>A container name no other test uses.</summary>
    public static string UniqueContainerName(string prefix = "c") =>
        $"{prefix}{Environment.ProcessId}x{Interlocked.Increment(ref s_containers)}";

    /// <summary>
    /// An adapter on <paramref name="container"/> through the stand-in (or <paramref name="standIn"/>): the real SDK in
    /// Gateway mode, the stand-in's certificate trusted, database and container created when missing; <paramref name="configure"/> changes the rest.
    /// </summary>
    internal CosmosAdapter CreateAdapter(string container, CosmosWriteMethod mode = CosmosWriteMethod.TransactionalBatch, StandInHost? standIn = null, Action<CosmosOptions>? configure = null, int maxParallelBatches = 4, Microsoft.Extensions.Logging.ILoggerFactory? loggerFactory = null)
    {
        var options = new CosmosOptions
        {
            ConnectionString = (standIn ?? StandIn).ConnectionString(Key),
            Database = Database,
            Container = container,
            CreateIfMissing = true,
            ConnectionMode = CosmosConnectionMode.Gateway,
            TrustEmulatorCertificate = true,
            Mode = mode,
        };
        configure?.Invoke(options);
        return BackendFactory.CreateCosmos(options, maxParallelBatches, TimeSpan.FromSeconds(30), TimeProvider.System, loggerFactory);
    }

    /// <summary>Loader settings that reach the stand-in (or <paramref name="standIn"/>) through the real SDK in Gateway mode.</summary>
    public Dictionary<string, string?> LoaderSettings(string container, string mode = "TransactionalBatch", StandInHost? standIn = null) => new()
    {
        ["Loader:Backend"] = "Cosmos",
        ["Loader:Cosmos:ConnectionString"] = (standIn ?? StandIn).ConnectionString(Key),
        ["Loader:Cosmos:ConnectionMode"] = "Gateway",
        ["Loader:Cosmos:TrustEmulatorCertificate"] = "true",
        ["Loader:Cosmos:CreateIfMissing"] = "true",
        ["Loader:Cosmos:Database"] = Database,
        ["Loader:Cosmos:Container"] = container,
        ["Loader:Cosmos:Mode"] = mode,
    };

    /// <summary>Creates a container partitioned on <paramref name="partitionKeyPath"/>.</summary>
    public async Task<Container> CreateContainerAsync(string name, string partitionKeyPath = "/pk", CancellationToken cancellationToken = default)
    {
        var created = await Client.GetDatabase(Database).CreateContainerIfNotExistsAsync(new ContainerProperties(name, partitionKeyPath), cancellationToken: cancellationToken);
        return created.Container;
    }

    /// <summary>
    /// Every item of a container, keyed by (partition key value, id), read straight from cosmosdb-server's feed: for
    /// small containers only, as its feed costs about a millisecond an item per page (use the stand-in's ReadItemsAsync beyond a few thousand).
    /// </summary>
    public Task<Dictionary<(string, string), JsonElement>> ReadContainerAsync(string container, string partitionKeyProperty = "pk", CancellationToken cancellationToken = default) =>
        ReadContainerAsync(Server, container, partitionKeyProperty, cancellationToken);

    /// <summary>Every item of a container of <paramref name="server"/>, keyed by (partition key value, id).</summary>
    private static async Task<Dictionary<(string, string), JsonElement>> ReadContainerAsync(CosmosDbServerProcess server, string container, string partitionKeyProperty = "pk", CancellationToken cancellationToken = default)
    {
        var items = new Dictionary<(string, string), JsonElement>();
        using var http = new HttpClient { BaseAddress = server.Endpoint };
        string? continuation = null;
        do
        {
            using var request = new HttpRequestMessage(HttpMethod.Get, $"dbs/{Database}/colls/{container}/docs");
            request.Headers.Add("x-ms-max-item-count", "5000");
            if (continuation is not null)
            {
                request.Headers.Add("x-ms-continuation", continuation);
            }

            using var response = await http.SendAsync(request, cancellationToken);
            response.EnsureSuccessStatusCode();
            using var page = JsonDocument.Parse(await response.Content.ReadAsStringAsync(cancellationToken));
            foreach (var item in page.RootElement.GetProperty("Documents").EnumerateArray())
            {
                items.Add((item.GetProperty(partitionKeyProperty).GetString()!, item.GetProperty("id").GetString()!), item.Clone());
            }

            continuation = response.Headers.TryGetValues("x-ms-continuation", out var values) ? values.FirstOrDefault() : null;
        }
        while (!string.IsNullOrEmpty(continuation));

        return items;
    }

    /// <summary>
    /// An SDK client as the loader makes one for a local endpoint: Gateway mode, this endpoint only, its certificate
    /// trusted, no 429 retries; <paramref name="configure"/> changes the rest (a priority level, a throughput bucket).
    /// </summary>
    public static CosmosClient CreateClient(string connectionString, bool bulk = false, Action<CosmosClientOptions>? configure = null)
    {
        var options = new CosmosClientOptions
        {
            ConnectionMode = ConnectionMode.Gateway,
            LimitToEndpoint = true,
            ServerCertificateCustomValidationCallback = (_, _, _) => true,
            MaxRetryAttemptsOnRateLimitedRequests = 0,
            AllowBulkExecution = bulk,
        };
        configure?.Invoke(options);
        return new CosmosClient(connectionString, options);
    }

    /// <summary>A stand-in of a test's own, on a cosmosdb-server of its own (stopped with it) or the shared one.</summary>
    public sealed class OwnStandIn(CosmosDbServerProcess server, StandInHost standIn, bool ownsServer) : IAsyncDisposable
    {
        public CosmosDbServerProcess Server => server;

        public StandInHost StandIn => standIn;

        public async ValueTask DisposeAsync()
        {
            await standIn.DisposeAsync();
            if (ownsServer)
            {
                await server.DisposeAsync();
            }
        }
    }
}
