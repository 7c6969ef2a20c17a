using System.Text.Json;
using System.Text.Json.Nodes;
using Loader.Abstractions;
using Loader.CosmosStandIn;
using Loader.Worker.Backends.Cosmos;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Backends.Cosmos;

/// <summary>The Cosmos DB adapter through the real SDK in Gateway mode, against the stand-in and cosmosdb-server: what is stored, and how a partly throttled bulk write is reported.</summary>
public sealed class CosmosAdapterTests(CosmosStandInFixture cosmos) : IAsyncDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly string _container = CosmosStandInFixture.UniqueContainerName("adapter");
    private readonly List<IAsyncDisposable> _owned = [];

    public async ValueTask DisposeAsync()
    {
        foreach (var owned in _owned)
        {
            await owned.DisposeAsync();
        }
    }

    private async Task<CosmosAdapter> AdapterAsync(CosmosWriteMethod mode = CosmosWriteMethod.TransactionalBatch, string partitionKeyPath = "/pk", StandInHost? standIn = null)
    {
        var adapter = cosmos.CreateAdapter(_container, mode, standIn, options => options.PartitionKeyPath = partitionKeyPath);
        _owned.Add(adapter);
        await adapter.PrepareAsync(_cancellation);
        return adapter;
    }

    private static LoadEntity Entity(CosmosAdapter adapter, string partitionKey, string id, params EntityProperty[] properties)
    {
        var inspection = adapter.Inspect(partitionKey, id, properties);
        Assert.True(inspection.IsValid, inspection.Violation);
        return new LoadEntity(partitionKey, id, properties, new RowOrigin(1, 2), inspection.PayloadBytes);
    }

    /// <summary>The stored item without the properties the service adds.</summary>
    private static JsonObject UserJson(JsonElement item)
    {
        var node = JsonNode.Parse(item.GetRawText())!.AsObject();
        foreach (var system in new[] { "_rid", "_self", "_etag", "_ts", "_attachments" })
        {
            node.Remove(system);
        }

        return node;
    }

    [Theory]
    [InlineData(nameof(CosmosWriteMethod.TransactionalBatch))]
    [InlineData(nameof(CosmosWriteMethod.Bulk))]
    public async Task Items_are_stored_as_typed_json_with_the_id_and_the_partition_key(string modeName)
    {
        var mode = Enum.Parse<CosmosWriteMethod>(modeName);
        var adapter = await AdapterAsync(mode);
        var when = new DateTime(2024, 3, 1, 10, 0, 0, DateTimeKind.Utc);
        var guid = Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e");

        var outcome = await adapter.WriteBatchAsync(new EntityBatch("LAX", [
            Entity(adapter, "LAX", "2024-3-1-AA-1", EntityProperty.FromString("carrier", "AA"), EntityProperty.FromInt32("delay", -3), EntityProperty.FromDouble("miles", 2475.5)),
            Entity(adapter, "LAX", "2024-3-1-DL-2", EntityProperty.FromBoolean("cancelled", true), EntityProperty.FromDateTime("at", when), EntityProperty.FromGuid("ref", guid), EntityProperty.FromInt64("big", 1L << 40)),
        ], WriteMode.Upsert), _cancellation);

        Assert.Equal(BatchStatus.Written, outcome.Status);
        Assert.Equal(10, outcome.RequestCharge); // two items under a kilobyte, 5 RU each, as the stand-in charges
        var items = await cosmos.ReadContainerAsync(_container, cancellationToken: _cancellation);
        Assert.True(JsonNode.DeepEquals(
            JsonNode.Parse("""{"id":"2024-3-1-AA-1","pk":"LAX","carrier":"AA","delay":-3,"miles":2475.5}"""),
            UserJson(items[("LAX", "2024-3-1-AA-1")])));
        Assert.True(JsonNode.DeepEquals(
            JsonNode.Parse("""{"id":"2024-3-1-DL-2","pk":"LAX","cancelled":true,"at":"2024-03-01T10:00:00.0000000Z","ref":"0f8fad5b-d9cb-469f-a165-70867728950e","big":1099511627776}"""),
            UserJson(items[("LAX", "2024-3-1-DL-2")])));
    }

    [Theory]
    [InlineData(nameof(CosmosWriteMethod.TransactionalBatch))]
    [InlineData(nameof(CosmosWriteMethod.Bulk))]
    public async Task The_partition_key_goes_to_the_configured_property(string modeName)
    {
        var mode = Enum.Parse<CosmosWriteMethod>(modeName);
        var adapter = await AdapterAsync(mode, partitionKeyPath: "/region");

        var outcome = await adapter.WriteBatchAsync(new EntityBatch("west", [Entity(adapter, "west", "1")], WriteMode.Upsert), _cancellation);

        Assert.Equal(BatchStatus.Written, outcome.Status);
        var items = await cosmos.ReadContainerAsync(_container, partitionKeyProperty: "region", cancellationToken: _cancellation);
        Assert.Equal("west", items[("west", "1")].GetProperty("region").GetString());
        Assert.Contains("region", adapter.Limits.SystemPropertyNames);
    }

    [Fact]
    public async Task In_bulk_mode_the_items_the_budget_admits_land_and_the_throttled_rest_is_reported_with_its_retry_after()
    {
        // Ten request units in the bucket and a trickle after: two 5 RU items fit, the third does not.
        var standIn = await cosmos.StartStandInAsync(new StandInOptions { RuPerSecond = 1, BurstSeconds = 10 }, _cancellation);
        _owned.Add(standIn);
        var adapter = await AdapterAsync(CosmosWriteMethod.Bulk, standIn: standIn);

        var outcome = await adapter.WriteBatchAsync(new EntityBatch("p", [Entity(adapter, "p", "a"), Entity(adapter, "p", "b"), Entity(adapter, "p", "c")], WriteMode.Upsert), _cancellation);

        Assert.Equal(BatchStatus.Throttled, outcome.Status);
        Assert.Equal(2, outcome.AppliedOperations.Count);
        Assert.Equal(1, outcome.ThrottledResponses);
        Assert.Equal(10, outcome.RequestCharge);
        Assert.True(outcome.RetryAfter > TimeSpan.FromSeconds(1), $"retry after {outcome.RetryAfter}: the budget refills at 1 RU/s");
        var stored = await cosmos.ReadContainerAsync(_container, cancellationToken: _cancellation);
        var ids = new[] { "a", "b", "c" };
        Assert.Equal(outcome.AppliedOperations.Select(i => ids[i]).Order(), stored.Keys.Select(key => key.Item2).Order());
        Assert.Equal((1L, 10.0), (standIn.Stats.Snapshot().ThrottledOperations, standIn.Stats.Snapshot().RequestChargeTotal));
    }
}
