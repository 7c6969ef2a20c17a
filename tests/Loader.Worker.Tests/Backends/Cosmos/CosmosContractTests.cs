using Loader.Abstractions;
using Loader.CosmosStandIn;
using Loader.Worker.Backends.Cosmos;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Backends.Cosmos;

/// <summary>
/// The adapter contract for Cosmos DB through the real SDK in Gateway mode, against the stand-in in front of a
/// real cosmosdb-server: the SDK's own binary batches go over the wire and are answered as the service answers
/// them (throttling: a stand-in with a small request-unit budget). Each test has its own container.
/// </summary>
public abstract class CosmosContractTests : AdapterContractTests, IAsyncDisposable
{
    private readonly CosmosStandInFixture _cosmos;
    private readonly CosmosWriteMethod _mode;
    private readonly List<IAsyncDisposable> _owned = [];
    private readonly Dictionary<IBackendAdapter, string> _containers = [];

    // Private protected: the write method is the worker's own (internal) type, so only this assembly's subclasses may pick it.
    private protected CosmosContractTests(CosmosStandInFixture cosmos, CosmosWriteMethod mode)
    {
        _cosmos = cosmos;
        _mode = mode;
    }

    protected override async Task<IBackendAdapter> CreateAdapterAsync() => await CreateAsync(_cosmos.StandIn);

    protected override async Task<IBackendAdapter?> CreateThrottlingAdapterAsync()
    {
        // 20 RU/s with one second of burst: a 2 KB item costs 10 RU, so the bucket empties within a few batches even
        // at bulk mode's pace (the SDK holds point operations up to its dispatch timer before sending them).
        var standIn = await _cosmos.StartStandInAsync(new StandInOptions { RuPerSecond = 20, BurstSeconds = 1 }, Cancellation);
        _owned.Add(standIn);
        return await CreateAsync(standIn);
    }

    private async Task<IBackendAdapter> CreateAsync(StandInHost standIn)
    {
        var container = CosmosStandInFixture.UniqueContainerName("contract");
        var adapter = _cosmos.CreateAdapter(container, _mode, standIn, maxParallelBatches: 8);
        await adapter.PrepareAsync(Cancellation);
        _containers[adapter] = container;
        return adapter;
    }

    protected override Task<IReadOnlyDictionary<string, object>?> ReadBackAsync(IBackendAdapter adapter, string partitionKey, string rowKey) =>
        CosmosItems.ReadAsync(_cosmos.Client.GetContainer(CosmosStandInFixture.Database, _containers[adapter]), partitionKey, rowKey, Cancellation);

    public async ValueTask DisposeAsync()
    {
        foreach (var owned in _owned)
        {
            await owned.DisposeAsync();
        }

        GC.SuppressFinalize(this);
    }
}

/// <summary>The contract in <c>Loader:Cosmos:Mode=TransactionalBatch</c>: one atomic batch request per partition batch.</summary>
public sealed class CosmosTransactionalBatchContractTests(CosmosStandInFixture cosmos) : CosmosContractTests(cosmos, CosmosWriteMethod.TransactionalBatch);

/// <summary>The contract in <c>Loader:Cosmos:Mode=Bulk</c>: point operations the SDK packs into non-atomic batch requests.</summary>
public sealed class CosmosBulkContractTests(CosmosStandInFixture cosmos) : CosmosContractTests(cosmos, CosmosWriteMethod.Bulk);
