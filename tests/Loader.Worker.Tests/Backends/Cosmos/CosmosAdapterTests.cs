using System.Net;
using System.Text.Json.Nodes;
using Loader.Abstractions;
using Loader.Worker.Backends.Cosmos;
using Loader.Worker.Tests.Backends.Cosmos.Doubles;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Tests.Backends.Cosmos;

/// <summary>The Cosmos DB adapter's logic, observed through the SDK's own abstract types (TEST DOUBLES: no service runs here).</summary>
public sealed class CosmosAdapterTests
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly ContainerDouble _container = new();

    private CosmosAdapter Adapter(CosmosWriteMethod mode = CosmosWriteMethod.TransactionalBatch) =>
        new(_container, new CosmosOptions { Database = "db", Container = "c", Mode = mode }, TimeProvider.System, _ => Task.CompletedTask);

    private static LoadEntity Entity(CosmosAdapter adapter, string partitionKey, string id, params EntityProperty[] properties)
    {
        var inspection = adapter.Inspect(partitionKey, id, properties);
        Assert.True(inspection.IsValid, inspection.Violation);
        return new LoadEntity(partitionKey, id, properties, new RowOrigin(1, 2), inspection.PayloadBytes);
    }

    [Fact]
    public async Task A_batch_is_one_transaction_in_its_partition_with_typed_json_items()
    {
        var adapter = Adapter();
        var when = new DateTime(2024, 3, 1, 10, 0, 0, DateTimeKind.Utc);
        var guid = Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e");
        var batch = new EntityBatch("LAX", [
            Entity(adapter, "LAX", "2024-3-1-AA-1", EntityProperty.FromString("carrier", "AA"), EntityProperty.FromInt32("delay", -3), EntityProperty.FromDouble("miles", 2475.5)),
            Entity(adapter, "LAX", "2024-3-1-DL-2", EntityProperty.FromBoolean("cancelled", true), EntityProperty.FromDateTime("at", when), EntityProperty.FromGuid("ref", guid), EntityProperty.FromInt64("big", 1L << 40)),
        ], WriteMode.Upsert);

        var outcome = await adapter.WriteBatchAsync(batch, _cancellation);

        Assert.Equal(BatchStatus.Written, outcome.Status);
        var transaction = Assert.Single(_container.Transactions);
        Assert.Equal("LAX", transaction.PartitionKey);
        Assert.Equal(["Upsert", "Upsert"], transaction.Operations.Select(o => o.Kind));
        Assert.All(transaction.Operations, o => Assert.False(o.ContentOnWrite));
        Assert.True(JsonNode.DeepEquals(
            JsonNode.Parse("""{"id":"2024-3-1-AA-1","pk":"LAX","carrier":"AA","delay":-3,"miles":2475.5}"""),
            JsonNode.Parse(transaction.Operations[0].Body)));
        Assert.True(JsonNode.DeepEquals(
            JsonNode.Parse("""{"id":"2024-3-1-DL-2","pk":"LAX","cancelled":true,"at":"2024-03-01T10:00:00.0000000Z","ref":"0f8fad5b-d9cb-469f-a165-70867728950e","big":1099511627776}"""),
            JsonNode.Parse(transaction.Operations[1].Body)));
        Assert.Equal(2 * _container.ChargePerOperation, outcome.RequestCharge);
    }

    [Fact]
    public async Task The_partition_key_goes_to_the_configured_property()
    {
        var container = new ContainerDouble("region");
        var adapter = new CosmosAdapter(container, new CosmosOptions { Database = "db", Container = "c", PartitionKeyPath = "/region" }, TimeProvider.System, _ => Task.CompletedTask);

        await adapter.WriteBatchAsync(new EntityBatch("west", [Entity(adapter, "west", "1")], WriteMode.Upsert), _cancellation);

        Assert.Equal("west", container.Get("west", "1")?["region"]?.GetValue<string>());
        Assert.Contains("region", adapter.Limits.SystemPropertyNames);
    }

    [Fact]
    public async Task Insert_creates_and_a_conflict_names_only_that_row()
    {
        var adapter = Adapter();
        _container.Seed("p", "taken", """{"id":"taken","pk":"p","v":"old"}""");

        var outcome = await adapter.WriteBatchAsync(new EntityBatch("p", [Entity(adapter, "p", "a"), Entity(adapter, "p", "taken"), Entity(adapter, "p", "b")], WriteMode.Insert), _cancellation);

        Assert.Equal(["Create", "Create", "Create"], _container.Transactions[0].Operations.Select(o => o.Kind));
        Assert.Equal(BatchStatus.OperationsRejected, outcome.Status);
        var failure = Assert.Single(outcome.OperationFailures);
        Assert.Equal((1, 409), (failure.Index, failure.StatusCode));
        Assert.Equal("an item with this id already exists in the partition", failure.Message);
        Assert.Equal(1, _container.Count); // atomic: nothing of the batch was applied
    }

    [Fact]
    public async Task Merge_reads_the_items_then_replaces_under_their_etag_and_creates_the_missing()
    {
        var adapter = Adapter();
        _container.Seed("p", "k", """{"id":"k","pk":"p","a":"a1","b":"b1","n":1}""");

        var outcome = await adapter.WriteBatchAsync(new EntityBatch("p", [
            Entity(adapter, "p", "k", EntityProperty.FromString("b", "b2"), EntityProperty.FromString("c", "c3")),
            Entity(adapter, "p", "new", EntityProperty.FromString("c", "x")),
        ], WriteMode.Merge), _cancellation);

        Assert.Equal(BatchStatus.Written, outcome.Status);
        Assert.Equal(1, _container.ReadManyCalls);
        var operations = _container.Transactions[0].Operations;
        Assert.Equal(["Replace", "Create"], operations.Select(o => o.Kind));
        Assert.NotNull(operations[0].IfMatchETag);
        Assert.True(JsonNode.DeepEquals(JsonNode.Parse("""{"id":"k","pk":"p","a":"a1","b":"b2","c":"c3","n":1}"""), _container.Get("p", "k")));
        Assert.Equal("x", _container.Get("p", "new")?["c"]?.GetValue<string>());
        Assert.Equal(4 * _container.ChargePerOperation, outcome.RequestCharge); // two items read, two written
    }

    [Fact]
    public async Task A_merge_that_loses_a_race_is_retried_not_rejected()
    {
        var adapter = Adapter();
        _container.Seed("p", "k", """{"id":"k","pk":"p","a":"a1"}""");
        _container.Script = call => call.Transaction is { } t ? TransactionalBatchResponseDouble.Failed(t.Operations.Count, 0, HttpStatusCode.PreconditionFailed, 1, "etag mismatch") : null;

        var outcome = await adapter.WriteBatchAsync(new EntityBatch("p", [Entity(adapter, "p", "k", EntityProperty.FromString("a", "a2"))], WriteMode.Merge), _cancellation);

        Assert.Equal(BatchStatus.Transient, outcome.Status);
        Assert.Empty(outcome.OperationFailures);
    }

    [Fact]
    public async Task A_throttled_transaction_carries_the_services_retry_after()
    {
        var adapter = Adapter();
        _container.Script = call => call.Transaction is { } t ? TransactionalBatchResponseDouble.Throttled(t.Operations.Count, TimeSpan.FromMilliseconds(730)) : null;

        var outcome = await adapter.WriteBatchAsync(new EntityBatch("p", [Entity(adapter, "p", "a")], WriteMode.Upsert), _cancellation);

        Assert.Equal(BatchStatus.Throttled, outcome.Status);
        Assert.Equal(TimeSpan.FromMilliseconds(730), outcome.RetryAfter);
        Assert.Equal(1, outcome.ThrottledResponses);
        Assert.Equal(0, _container.Count);
    }

    [Theory]
    [InlineData(HttpStatusCode.Forbidden, BatchStatus.Failed)]
    [InlineData(HttpStatusCode.ServiceUnavailable, BatchStatus.Transient)]
    [InlineData(HttpStatusCode.RequestTimeout, BatchStatus.Transient)]
    [InlineData((HttpStatusCode)429, BatchStatus.Throttled)]
    public async Task Exceptions_from_the_sdk_are_classified(HttpStatusCode status, BatchStatus expected)
    {
        var adapter = Adapter();
        _container.Script = _ => throw new CosmosException("the service said no\n{diagnostics}", status, 0, "activity", 1.5);

        var outcome = await adapter.WriteBatchAsync(new EntityBatch("p", [Entity(adapter, "p", "a")], WriteMode.Upsert), _cancellation);

        Assert.Equal(expected, outcome.Status);
        Assert.DoesNotContain("diagnostics", outcome.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Bulk_mode_sends_point_operations_and_reports_which_landed()
    {
        var adapter = Adapter(CosmosWriteMethod.Bulk);
        _container.Script = call => call.Point is { Id: "b" } ? _container.Response((HttpStatusCode)429, "", 0, TimeSpan.FromMilliseconds(250)) : null;

        var outcome = await adapter.WriteBatchAsync(new EntityBatch("p", [Entity(adapter, "p", "a"), Entity(adapter, "p", "b"), Entity(adapter, "p", "c")], WriteMode.Upsert), _cancellation);

        Assert.Empty(_container.Transactions);
        Assert.Equal(["a", "b", "c"], _container.PointOperations.Select(o => o.Id));
        Assert.Equal(BatchStatus.Throttled, outcome.Status);
        Assert.Equal([0, 2], outcome.AppliedOperations);
        Assert.Equal(1, outcome.ThrottledResponses);
        Assert.Equal(TimeSpan.FromMilliseconds(250), outcome.RetryAfter);
        Assert.Equal(2 * _container.ChargePerOperation, outcome.RequestCharge);
        Assert.Equal(2, _container.Count);
    }

    [Fact]
    public async Task Bulk_insert_conflicts_are_refused_per_item_while_the_others_land()
    {
        var adapter = Adapter(CosmosWriteMethod.Bulk);
        _container.Seed("p", "taken", """{"id":"taken","pk":"p"}""");

        var outcome = await adapter.WriteBatchAsync(new EntityBatch("p", [Entity(adapter, "p", "taken"), Entity(adapter, "p", "new")], WriteMode.Insert), _cancellation);

        Assert.Equal(BatchStatus.OperationsRejected, outcome.Status);
        Assert.Equal([1], outcome.AppliedOperations);
        Assert.Equal((0, 409), (outcome.OperationFailures[0].Index, outcome.OperationFailures[0].StatusCode));
    }

    [Theory]
    [InlineData("a/b", "contains '/'")]
    [InlineData("a#b", "contains '#'")]
    [InlineData("", "row key (the item id) is empty")]
    public void Ids_the_service_refuses_are_rejected_before_sending(string id, string reason)
    {
        Assert.Contains(reason, Adapter().Inspect("p", id, []).Violation, StringComparison.Ordinal);
    }

    [Fact]
    public void Ids_over_255_characters_partition_keys_over_2_KiB_and_nan_are_rejected()
    {
        var adapter = Adapter();

        Assert.Contains("longer than 255", adapter.Inspect("p", new string('i', 256), []).Violation, StringComparison.Ordinal);
        Assert.Contains("longer than 2,048 bytes", adapter.Inspect(new string('é', 1100), "i", []).Violation, StringComparison.Ordinal);
        Assert.Contains("column 'x': NaN cannot be stored", adapter.Inspect("p", "i", [EntityProperty.FromDouble("x", double.NaN)]).Violation, StringComparison.Ordinal);
        Assert.True(adapter.Inspect("p", new string('i', 255), []).IsValid);
    }
}
