using System.Text.Json;
using Loader.Abstractions;
using Loader.Worker.Backends.Cosmos;
using Loader.Worker.Tests.Backends.Cosmos.Doubles;

namespace Loader.Worker.Tests.Backends.Cosmos;

/// <summary>
/// The adapter contract for Cosmos DB run against the <see cref="ContainerDouble"/> TEST DOUBLE: it checks the
/// adapter's side of the contract (what it sends, how it reads answers), not the service. The same suite runs
/// against a real endpoint in <see cref="CosmosLiveContractTests"/> when one is configured.
/// </summary>
public sealed class CosmosContractOnDoubleTests : AdapterContractTests
{
    private readonly Dictionary<IBackendAdapter, ContainerDouble> _containers = [];

    protected override Task<IBackendAdapter> CreateAdapterAsync() => Task.FromResult<IBackendAdapter>(Create(new ContainerDouble()));

    protected override Task<IBackendAdapter?> CreateThrottlingAdapterAsync()
    {
        var container = new ContainerDouble { Script = call => call.Transaction is { } transaction ? TransactionalBatchResponseDouble.Throttled(transaction.Operations.Count, TimeSpan.FromMilliseconds(120)) : null };
        return Task.FromResult<IBackendAdapter?>(Create(container));
    }

    private CosmosAdapter Create(ContainerDouble container)
    {
        var adapter = new CosmosAdapter(container, new CosmosOptions { Database = "db", Container = "c" }, TimeProvider.System, _ => Task.CompletedTask);
        _containers[adapter] = container;
        return adapter;
    }

    protected override Task<IReadOnlyDictionary<string, object>?> ReadBackAsync(IBackendAdapter adapter, string partitionKey, string rowKey)
    {
        var item = _containers[adapter].Get(partitionKey, rowKey);
        return Task.FromResult<IReadOnlyDictionary<string, object>?>(item is null ? null : CosmosItems.Properties(JsonDocument.Parse(item.ToJsonString()).RootElement));
    }
}
