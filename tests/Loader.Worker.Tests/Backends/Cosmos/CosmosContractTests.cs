using System.Text.Json;
using Loader.Abstractions;
using Loader.CosmosStandIn;
using Loader.Worker.Backends.Cosmos;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Azure.Cosmos;

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

    /// <summary>An adapter on a fresh container made with <paramref name="configure"/>'s key paths and separator.</summary>
    private async Task<(CosmosAdapter Adapter, Container Container)> CreateShapedAsync(Action<CosmosOptions> configure)
    {
        var container = CosmosStandInFixture.UniqueContainerName("shape");
        var adapter = _cosmos.CreateAdapter(container, _mode, configure: configure, maxParallelBatches: 8);
        _owned.Add(adapter);
        await adapter.PrepareAsync(Cancellation);
        return (adapter, _cosmos.Client.GetContainer(CosmosStandInFixture.Database, container));
    }

    /// <summary>An item as stored, read by its id and its full partition key; null when it is not there.</summary>
    private async Task<JsonElement?> ReadItemAsync(Container container, string id, PartitionKey key)
    {
        using var response = await container.ReadItemStreamAsync(id, key, cancellationToken: Cancellation);
        if (!response.IsSuccessStatusCode)
        {
            return null;
        }

        using var document = await JsonDocument.ParseAsync(response.Content, cancellationToken: Cancellation);
        return document.RootElement.Clone();
    }

    private static void AssertJson(string expected, JsonElement actual, params string[] path)
    {
        foreach (var name in path)
        {
            Assert.True(actual.TryGetProperty(name, out actual), $"no '{name}' in {actual.GetRawText()}");
        }

        Assert.True(JsonElement.DeepEquals(JsonDocument.Parse(expected).RootElement, actual), $"expected {expected}, was {actual.GetRawText()}");
    }

    [Fact]
    public async Task A_three_level_key_groups_a_batch_by_the_full_key_and_lands_each_level_at_its_path()
    {
        var (adapter, container) = await CreateShapedAsync(options => options.PartitionKeyPaths = "/tenantId,/userId,/sessionId");
        var key = PartitionKeyLevels.Join(["acme", "u1", "s9"]);
        var other = PartitionKeyLevels.Join(["acme", "u1", "s10"]);

        Assert.Equal(BatchStatus.Written, (await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity(adapter, key, "a", EntityProperty.FromInt32("n", 1)), Entity(adapter, key, "b", EntityProperty.FromInt32("n", 2))), Cancellation)).Status);
        Assert.Equal(BatchStatus.Written, (await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity(adapter, other, "a", EntityProperty.FromInt32("n", 3))), Cancellation)).Status);

        var a = await ReadItemAsync(container, "a", new PartitionKeyBuilder().Add("acme").Add("u1").Add("s9").Build());
        Assert.NotNull(a);
        Assert.Equal(("acme", "u1", "s9", 1), (a.Value.GetProperty("tenantId").GetString(), a.Value.GetProperty("userId").GetString(), a.Value.GetProperty("sessionId").GetString(), a.Value.GetProperty("n").GetInt32()));
        var b = await ReadItemAsync(container, "b", new PartitionKeyBuilder().Add("acme").Add("u1").Add("s9").Build());
        Assert.Equal(2, b?.GetProperty("n").GetInt32());
        var otherA = await ReadItemAsync(container, "a", new PartitionKeyBuilder().Add("acme").Add("u1").Add("s10").Build());
        Assert.Equal(("s10", 3), (otherA?.GetProperty("sessionId").GetString(), otherA?.GetProperty("n").GetInt32()));
    }

    [Fact]
    public async Task Each_level_of_a_hierarchical_key_is_held_to_the_service_s_key_size()
    {
        await using var adapter = _cosmos.CreateAdapter(CosmosStandInFixture.UniqueContainerName("size"), _mode, configure: options => options.PartitionKeyPaths = "/tenantId,/userId");

        Assert.Null(adapter.Inspect(PartitionKeyLevels.Join(["t", new string('u', 2048)]), "a", []).Violation);
        Assert.Equal("partition key level 2 (/userId) is longer than 2,048 bytes", adapter.Inspect(PartitionKeyLevels.Join(["t", new string('u', 2049)]), "a", []).Violation);
        Assert.Equal("partition key level 1 (/tenantId) is empty", adapter.Inspect(PartitionKeyLevels.Join(["", "u"]), "a", []).Violation);
        Assert.Equal("partition key has 1 level(s), but the container's key has 2 paths", adapter.Inspect("t", "a", []).Violation);
    }

    [Fact]
    public async Task A_key_of_one_level_may_hold_the_character_hierarchical_levels_are_joined_with()
    {
        var (adapter, container) = await CreateShapedAsync(_ => { });

        Assert.Equal(BatchStatus.Written, (await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity(adapter, "a\u001Fb", "k")), Cancellation)).Status);

        Assert.Equal("a\u001Fb", (await ReadItemAsync(container, "k", new PartitionKey("a\u001Fb")))?.GetProperty("pk").GetString());
    }

    [Fact]
    public async Task Nested_columns_and_a_nested_key_path_are_written_as_objects()
    {
        var (adapter, container) = await CreateShapedAsync(options => options.PartitionKeyPath = "/customer/id");
        var entity = Entity(
            adapter,
            "c42",
            "o1",
            EntityProperty.FromString("address.city", "Oslo"),
            EntityProperty.FromString("customer.name", "Kari"),
            EntityProperty.FromString("address.zip", "0150"),
            EntityProperty.FromInt32("total", 7));

        Assert.Equal(BatchStatus.Written, (await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, entity), Cancellation)).Status);

        var item = (await ReadItemAsync(container, "o1", new PartitionKey("c42")))!.Value;
        AssertJson("""{"city":"Oslo","zip":"0150"}""", item, "address");
        AssertJson("""{"id":"c42","name":"Kari"}""", item, "customer");
        AssertJson("7", item, "total");
        Assert.False(item.TryGetProperty("address.city", out _));
    }

    [Fact]
    public async Task Merge_of_a_nested_column_keeps_the_rest_of_its_object()
    {
        var (adapter, container) = await CreateShapedAsync(_ => { });
        await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity(adapter, "p", "k", EntityProperty.FromString("address.city", "Oslo"), EntityProperty.FromString("address.zip", "0150"), EntityProperty.FromString("name", "Kari"))), Cancellation);

        var outcome = await adapter.WriteBatchAsync(Batch(WriteMode.Merge, Entity(adapter, "p", "k", EntityProperty.FromString("address.city", "Bergen"))), Cancellation);

        Assert.Equal(BatchStatus.Written, outcome.Status);
        var item = (await ReadItemAsync(container, "k", new PartitionKey("p")))!.Value;
        AssertJson("""{"city":"Bergen","zip":"0150"}""", item, "address");
        AssertJson("\"Kari\"", item, "name");
    }

    [Theory]
    [InlineData("""{"a":1,"b":[true,null]}""")]
    [InlineData("""[1,"two",{"three":3}]""")]
    [InlineData("2.5")]
    [InlineData("\"text\"")]
    [InlineData("true")]
    [InlineData("false")]
    [InlineData("null")]
    public async Task A_json_cell_is_embedded_as_its_value(string json)
    {
        var (adapter, container) = await CreateShapedAsync(_ => { });

        Assert.Equal(BatchStatus.Written, (await adapter.WriteBatchAsync(Batch(WriteMode.Upsert, Entity(adapter, "p", "k", EntityProperty.FromJson("j", json), EntityProperty.FromJson("nested.j", json))), Cancellation)).Status);

        var item = (await ReadItemAsync(container, "k", new PartitionKey("p")))!.Value;
        AssertJson(json, item, "j");
        AssertJson(json, item, "nested", "j");
    }

    protected override Task<IReadOnlyDictionary<string, object>?> ReadBackAsync(IBackendAdapter adapter, string partitionKey, string rowKey) =>
        CosmosItems.ReadAsync(_cosmos.Client.GetContainer(CosmosStandInFixture.Database, _containers[adapter]), partitionKey, rowKey, Cancellation);

    [Fact]
    public async Task Merge_patches_a_stored_item_of_a_row_with_at_most_10_properties_and_replaces_it_beyond()
    {
        await using var adapter = await CreateAdapterAsync();
        var narrow = new[] { EntityProperty.FromString("a", "a2"), EntityProperty.FromInt32("n", 2) };
        var wide = Enumerable.Range(0, 11).Select(i => EntityProperty.FromInt32($"c{i}", i)).ToArray();
        var seed = Batch(WriteMode.Upsert, Entity(adapter, "p", "narrow", EntityProperty.FromString("a", "a1"), EntityProperty.FromString("kept", "k")), Entity(adapter, "p", "wide", EntityProperty.FromInt32("c0", -1), EntityProperty.FromString("kept", "k")));
        var upsert = await adapter.WriteBatchAsync(seed, Cancellation);
        Assert.Equal(BatchStatus.Written, upsert.Status);

        var patched = await adapter.WriteBatchAsync(Batch(WriteMode.Merge, Entity(adapter, "p", "narrow", narrow)), Cancellation);
        var replaced = await adapter.WriteBatchAsync(Batch(WriteMode.Merge, Entity(adapter, "p", "wide", wide)), Cancellation);

        Assert.Equal((BatchStatus.Written, 1, 0), (patched.Status, patched.PatchOperations, patched.ReadReplaceOperations));
        Assert.Equal((BatchStatus.Written, 0, 1), (replaced.Status, replaced.PatchOperations, replaced.ReadReplaceOperations));
        var narrowItem = await ReadBackAsync(adapter, "p", "narrow");
        Assert.Equal(("a2", 2L, "k"), (narrowItem?["a"], Convert.ToInt64(narrowItem?["n"], System.Globalization.CultureInfo.InvariantCulture), narrowItem?["kept"]));
        var wideItem = await ReadBackAsync(adapter, "p", "wide");
        Assert.Equal((0L, 10L, "k"), (Convert.ToInt64(wideItem?["c0"], System.Globalization.CultureInfo.InvariantCulture), Convert.ToInt64(wideItem?["c10"], System.Globalization.CultureInfo.InvariantCulture), wideItem?["kept"]));
        Measurements.Record(string.Create(System.Globalization.CultureInfo.InvariantCulture,
            $"{_mode}: RU per row on the stand-in: upsert {upsert.RequestCharge / 2:F2}, merge by patch {patched.RequestCharge:F2}, merge by read-then-replace {replaced.RequestCharge:F2} (both include the ReadMany)"));
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

/// <summary>The contract in <c>Loader:Cosmos:Mode=TransactionalBatch</c>: one atomic batch request per partition batch.</summary>
public sealed class CosmosTransactionalBatchContractTests(CosmosStandInFixture cosmos) : CosmosContractTests(cosmos, CosmosWriteMethod.TransactionalBatch);

/// <summary>The contract in <c>Loader:Cosmos:Mode=Bulk</c>: point operations the SDK packs into non-atomic batch requests.</summary>
public sealed class CosmosBulkContractTests(CosmosStandInFixture cosmos) : CosmosContractTests(cosmos, CosmosWriteMethod.Bulk);
