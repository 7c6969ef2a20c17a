using Loader.Abstractions;
using Loader.ThrottlingSimulator;
using Loader.Worker.Backends.Tables;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Backends.Tables;

/// <summary>
/// The adapter contract for Table Storage, against a real Azurite (throttling: the simulator in front of it), run once
/// for each <see cref="TableWriter"/> by its subclass.
/// </summary>
public abstract class TablesAdapterContractTests(AzuriteFixture azurite) : AdapterContractTests, IAsyncDisposable
{
    private readonly List<IAsyncDisposable> _owned = [];
    private readonly Dictionary<IBackendAdapter, string> _tables = [];

    /// <summary>The writer the adapters under test send batches with.</summary>
    internal abstract TableWriter Writer { get; }

    protected override async Task<IBackendAdapter> CreateAdapterAsync() => await CreateAsync(azurite.ConnectionString);

    protected override async Task<IBackendAdapter?> CreateThrottlingAdapterAsync()
    {
        // 100 RU/s with one second of burst: a 2 KB entity costs 10 RU, so the bucket empties within a few batches.
        var simulator = await SimulatorHost.StartAsync(new SimulatorOptions { Upstream = new Uri(azurite.Azurite.TableEndpoint), RuPerSecond = 100, BurstSeconds = 1 }, Cancellation);
        _owned.Add(simulator);
        var connection = azurite.ConnectionString.Replace(azurite.Azurite.TableEndpoint, simulator.TableEndpoint().AbsoluteUri.TrimEnd('/'), StringComparison.Ordinal);
        return await CreateAsync(connection);
    }

    [Fact]
    public async Task A_stored_entity_of_another_EDM_type_differs_and_a_double_that_is_not_finite_compares_equal()
    {
        await using var adapter = await CreateAdapterAsync();
        var rows = Batch(WriteMode.Upsert, Entity(adapter, "p", "k", EntityProperty.FromInt64("n", 7), EntityProperty.FromDouble("inf", double.NegativeInfinity)));
        Assert.Equal(BatchStatus.Written, (await adapter.WriteBatchAsync(rows, Cancellation)).Status);

        var comparison = await Comparing(adapter).CompareStoredAsync(
            Batch(
                WriteMode.Insert,
                Entity(adapter, "p", "k", EntityProperty.FromInt64("n", 7), EntityProperty.FromDouble("inf", double.NegativeInfinity)),
                Entity(adapter, "p", "k", EntityProperty.FromInt32("n", 7), EntityProperty.FromDouble("inf", double.NegativeInfinity))),
            Cancellation);

        Assert.Equal([StoredState.Equal, new StoredState(StoredMatch.Different, "it differs in 'n'")], comparison.Entities);
    }

    private async Task<IBackendAdapter> CreateAsync(string connectionString)
    {
        var table = AzuriteFixture.UniqueTableName("contract");
        var tables = new TablesOptions { ConnectionString = connectionString, Table = table, Writer = Writer };
        var options = TableClientFactory.Options(64, TimeSpan.FromSeconds(30));
        Func<Azure.Core.TokenCredential> noCredential = () => throw new InvalidOperationException("no credential here");
        var client = TableClientFactory.Create(tables, options, noCredential);
        var sender = TableClientFactory.CreateSender(tables, client, options, noCredential, TimeProvider.System);
        Assert.Equal(Writer == TableWriter.Direct, sender is not null);
        var adapter = new TablesAdapter(client, createTable: true, TimeProvider.System, sender);
        await adapter.PrepareAsync(Cancellation);
        _tables[adapter] = table;
        return adapter;
    }

    protected override async Task<IReadOnlyDictionary<string, object>?> ReadBackAsync(IBackendAdapter adapter, string partitionKey, string rowKey)
    {
        var stored = await azurite.ReadTableAsync(_tables[adapter], Cancellation);
        return stored.TryGetValue((partitionKey, rowKey), out var entity) ? entity.Properties : null;
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var owned in _owned)
        {
            await owned.DisposeAsync();
        }

        GC.SuppressFinalize(this);
    }
}
