using System.Text.Json;
using Loader.Abstractions;
using Loader.Worker.Backends.Cosmos;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Tests.Backends.Cosmos;

/// <summary>
/// The parts of the Cosmos DB adapter that travel as JSON over the REST protocol — creating and checking the
/// database and container, point writes and their per-item answers — through the real SDK against a
/// real <c>cosmosdb-server</c> process. Transactional batches (the SDK's binary format) are not tested here:
/// that server cannot decode them; nor is ReadMany (Merge), which the SDK runs as a query the server cannot
/// plan — Merge is covered through the test double. The point writes are the bulk path with the SDK's
/// packing left off.
/// </summary>
public sealed class CosmosRestProtocolTests : IAsyncLifetime
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private CosmosDbServerProcess _server = null!;
    private CosmosClient _client = null!;

    public async ValueTask InitializeAsync()
    {
        _server = await CosmosDbServerProcess.StartAsync(_cancellation);
        _client = new CosmosClient(_server.ConnectionString, new CosmosClientOptions
        {
            ConnectionMode = ConnectionMode.Gateway,
            LimitToEndpoint = true,
            ServerCertificateCustomValidationCallback = (_, _, _) => true,
            MaxRetryAttemptsOnRateLimitedRequests = 0,
        });
    }

    public async ValueTask DisposeAsync()
    {
        _client.Dispose();
        await _server.DisposeAsync();
    }

    private static CosmosOptions Options(bool create = true, string path = "/pk") => new()
    {
        ConnectionString = "unused",
        Database = "loads",
        Container = "flights",
        PartitionKeyPath = path,
        CreateIfMissing = create,
        Mode = CosmosWriteMethod.Bulk,
    };

    private CosmosAdapter Adapter(CosmosOptions options) =>
        new(_client.GetContainer(options.Database, options.Container), options, TimeProvider.System, token => CosmosTarget.PrepareAsync(_client, options, token));

    private static LoadEntity Entity(CosmosAdapter adapter, string partitionKey, string id, params EntityProperty[] properties)
    {
        var inspection = adapter.Inspect(partitionKey, id, properties);
        return new LoadEntity(partitionKey, id, properties, new RowOrigin(1, 2), inspection.PayloadBytes);
    }

    private async Task<JsonElement?> ReadAsync(string partitionKey, string id)
    {
        using var response = await _client.GetContainer("loads", "flights").ReadItemStreamAsync(id, new PartitionKey(partitionKey), cancellationToken: _cancellation);
        return response.IsSuccessStatusCode ? JsonDocument.Parse(await new StreamReader(response.Content).ReadToEndAsync(_cancellation)).RootElement : null;
    }

    [Fact]
    public async Task Prepare_creates_the_database_and_container_on_the_configured_path_and_is_idempotent()
    {
        var adapter = Adapter(Options());

        await adapter.PrepareAsync(_cancellation);
        await adapter.PrepareAsync(_cancellation);

        var container = await _client.GetContainer("loads", "flights").ReadContainerAsync(cancellationToken: _cancellation);
        Assert.Equal("/pk", container.Resource.PartitionKeyPath);
    }

    [Fact]
    public async Task Prepare_refuses_a_container_partitioned_on_another_path()
    {
        await Adapter(Options()).PrepareAsync(_cancellation);

        var exception = await Assert.ThrowsAsync<InvalidOperationException>(() => Adapter(Options(create: false, path: "/dest")).PrepareAsync(_cancellation));

        Assert.Equal("container 'flights' is partitioned on '/pk', but Loader:Cosmos:PartitionKeyPath is '/dest'.", exception.Message);
    }

    [Fact]
    public async Task Prepare_without_creation_names_the_missing_container()
    {
        var exception = await Assert.ThrowsAsync<InvalidOperationException>(() => Adapter(Options(create: false)).PrepareAsync(_cancellation));

        Assert.StartsWith("database 'loads' or container 'flights' does not exist", exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Point_writes_land_as_typed_json_items_with_the_partition_key_and_their_charge()
    {
        var adapter = Adapter(Options());
        await adapter.PrepareAsync(_cancellation);

        var outcome = await adapter.WriteBatchAsync(new EntityBatch("LAX", [
            Entity(adapter, "LAX", "1", EntityProperty.FromInt32("delay", 7), EntityProperty.FromBoolean("cancelled", false), EntityProperty.FromString("carrier", "AA")),
            Entity(adapter, "LAX", "2", EntityProperty.FromDouble("miles", 2475.5)),
        ], WriteMode.Upsert), _cancellation);

        Assert.Equal(BatchStatus.Written, outcome.Status);
        Assert.True(outcome.RequestCharge > 0);
        var first = (await ReadAsync("LAX", "1"))!.Value;
        Assert.Equal(("LAX", 7, false, "AA"), (first.GetProperty("pk").GetString(), first.GetProperty("delay").GetInt32(), first.GetProperty("cancelled").GetBoolean(), first.GetProperty("carrier").GetString()));
        Assert.Equal(2475.5, (await ReadAsync("LAX", "2"))!.Value.GetProperty("miles").GetDouble());
    }

    [Fact]
    public async Task Insert_over_an_existing_item_is_refused_for_that_item_while_the_other_lands()
    {
        var adapter = Adapter(Options());
        await adapter.PrepareAsync(_cancellation);
        await adapter.WriteBatchAsync(new EntityBatch("p", [Entity(adapter, "p", "taken", EntityProperty.FromString("v", "first"))], WriteMode.Upsert), _cancellation);

        var outcome = await adapter.WriteBatchAsync(new EntityBatch("p", [
            Entity(adapter, "p", "taken", EntityProperty.FromString("v", "second")),
            Entity(adapter, "p", "new", EntityProperty.FromString("v", "x")),
        ], WriteMode.Insert), _cancellation);

        Assert.Equal(BatchStatus.OperationsRejected, outcome.Status);
        Assert.Equal((0, 409), (outcome.OperationFailures.Single().Index, outcome.OperationFailures.Single().StatusCode));
        Assert.Equal([1], outcome.AppliedOperations);
        Assert.Equal("first", (await ReadAsync("p", "taken"))!.Value.GetProperty("v").GetString());
        Assert.NotNull(await ReadAsync("p", "new"));
    }
}
