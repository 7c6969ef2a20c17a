using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// The process stops against Cosmos DB, through the real SDK, in each <c>Loader:Cosmos:Mode</c>: every load has a
/// stand-in of its own (and the killed one its own cosmosdb-server), so the stand-in's count of items created is the
/// number of items the container holds; every expected item is read back by its key.
/// </summary>
public abstract class CosmosProcessStopTests(CosmosStandInFixture cosmos, string mode) : ProcessStopTests
{
    protected override int KilledLoadRows => 40_000;

    protected override int StoppedLoadRows => 30_000;

    protected override async Task<IAsyncDisposable> StartStoreAsync(bool large) =>
        large ? await CosmosStandInFixture.StartOwnAsync(Cancellation) : await cosmos.StartOwnStandInAsync(Cancellation);

    protected override Dictionary<string, string?> StoreSettings(SkewedFlights flights, string name, IAsyncDisposable store)
    {
        var settings = flights.KeySettings();
        foreach (var (key, value) in cosmos.LoaderSettings(CosmosStandInFixture.UniqueContainerName(name), mode, StandIn(store)))
        {
            settings[key] = value;
        }

        return settings;
    }

    protected override Task<long> CountStoredAsync(Dictionary<string, string?> settings, IAsyncDisposable store) =>
        Task.FromResult(StandIn(store).Stats.Snapshot().ItemsCreated);

    protected override async Task AssertStoreEqualsAsync(SkewedFlights flights, Dictionary<string, string?> settings, IAsyncDisposable store)
    {
        var items = await StandIn(store).ReadItemsAsync(CosmosStandInFixture.Database, settings["Loader:Cosmos:Container"]!, [.. flights.Expected.Keys], Cancellation);
        Assert.Equal(flights.Expected.Count, StandIn(store).Stats.Snapshot().ItemsCreated);
        foreach (var (key, flight) in flights.Expected)
        {
            Assert.True(items.TryGetValue(key, out var item), $"the row keyed {key} is missing");
            Assert.Equal((flight.Distance, flight.Tail), (item.GetProperty("distance").GetInt32(), item.GetProperty("tail").GetString()));
        }
    }

    private static Loader.CosmosStandIn.StandInHost StandIn(IAsyncDisposable store) => ((CosmosStandInFixture.OwnStandIn)store).StandIn;
}

public sealed class CosmosTransactionalBatchProcessStopTests(CosmosStandInFixture cosmos) : CosmosProcessStopTests(cosmos, "TransactionalBatch");

public sealed class CosmosBulkProcessStopTests(CosmosStandInFixture cosmos) : CosmosProcessStopTests(cosmos, "Bulk");
