using Loader.Abstractions;
using Loader.Worker.Backends.Cosmos;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Tests.Backends.Cosmos;

/// <summary>
/// The adapter contract against a real Cosmos DB for NoSQL endpoint — the Linux emulator or an account — when
/// <c>COSMOS_ENDPOINT</c> and <c>COSMOS_KEY</c> are set (and <c>COSMOS_TRUST_EMULATOR_CERTIFICATE=true</c> for the
/// emulator); skipped otherwise. Each test gets its own container in database <c>loader-tests</c>, deleted after.
/// The contract runs once per connection mode (<see cref="CosmosLiveGatewayContractTests"/>,
/// <see cref="CosmosLiveDirectContractTests"/>): Direct is the loader's default, and the stand-in speaks Gateway only.
/// </summary>
public abstract class CosmosLiveContractTests(ConnectionMode mode) : AdapterContractTests, IAsyncDisposable
{
    private static readonly string? s_endpoint = Environment.GetEnvironmentVariable("COSMOS_ENDPOINT");
    private static readonly string? s_key = Environment.GetEnvironmentVariable("COSMOS_KEY");
    private readonly List<(CosmosClient Client, Container Container)> _created = [];

    private CosmosOptions Options(string container, int? throughput = null) => new()
    {
        ConnectionString = $"AccountEndpoint={s_endpoint};AccountKey={s_key};",
        Database = "loader-tests",
        Container = container,
        CreateIfMissing = true,
        Throughput = throughput,
        ConnectionMode = mode == ConnectionMode.Direct ? CosmosConnectionMode.Direct : CosmosConnectionMode.Gateway,
        TrustEmulatorCertificate = Environment.GetEnvironmentVariable("COSMOS_TRUST_EMULATOR_CERTIFICATE") == "true",
    };

    private async Task<IBackendAdapter> CreateAsync(int? throughput)
    {
        if (string.IsNullOrEmpty(s_endpoint) || string.IsNullOrEmpty(s_key))
        {
            Assert.Skip("live Cosmos DB tests need COSMOS_ENDPOINT and COSMOS_KEY");
        }

        var options = Options("c" + Guid.NewGuid().ToString("N")[..12], throughput);
        var client = CosmosClientFactory.Create(options, maxParallelBatches: 8, TimeSpan.FromSeconds(30));
        var container = client.GetContainer(options.Database, options.Container);
        var adapter = new CosmosAdapter(container, options, TimeProvider.System, token => CosmosTarget.PrepareAsync(client, options, Microsoft.Extensions.Logging.Abstractions.NullLogger.Instance, token));
        await adapter.PrepareAsync(Cancellation);
        _created.Add((client, container));
        return adapter;
    }

    protected override Task<IBackendAdapter> CreateAdapterAsync() => CreateAsync(null);

    protected override async Task<IBackendAdapter?> CreateThrottlingAdapterAsync() => await CreateAsync(throughput: 400);

    protected override Task<IReadOnlyDictionary<string, object>?> ReadBackAsync(IBackendAdapter adapter, string partitionKey, string rowKey) =>
        CosmosItems.ReadAsync(_created[^1].Container, partitionKey, rowKey, Cancellation);

    public async ValueTask DisposeAsync()
    {
        foreach (var (client, container) in _created)
        {
            await container.DeleteContainerStreamAsync();
            client.Dispose();
        }

        GC.SuppressFinalize(this);
    }
}

/// <summary>The adapter contract against a live endpoint through the gateway.</summary>
public sealed class CosmosLiveGatewayContractTests() : CosmosLiveContractTests(ConnectionMode.Gateway);

/// <summary>The adapter contract against a live endpoint over Direct (TCP to the replicas), the loader's default mode.</summary>
public sealed class CosmosLiveDirectContractTests() : CosmosLiveContractTests(ConnectionMode.Direct);
