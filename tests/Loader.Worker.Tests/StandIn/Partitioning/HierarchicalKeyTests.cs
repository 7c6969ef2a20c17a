using System.Net;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Azure.Cosmos;
using static Loader.Worker.Tests.StandIn.StandInItems;

namespace Loader.Worker.Tests.StandIn.Partitioning;

/// <summary>
/// Hierarchical (MultiHash) partition keys through the real SDK against the stand-in: a container created with
/// three paths reads back as created, and the stand-in applies the service's rules to the whole key where
/// cosmosdb-server knows only the first path: items of different full keys that share a first level stay apart
/// for point reads, ReadMany and queries by key, and an item that does not carry the key it is written under is refused.
/// </summary>
public sealed class HierarchicalKeyTests(CosmosStandInFixture cosmos)
{
    private static readonly string[] s_threeLevels = ["/tenantId", "/userId", "/sessionId"];

    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;

    private Task<Container> ThreeLevelContainerAsync() =>
        CreateContainerAsync(cosmos.Client, new ContainerProperties(CosmosStandInFixture.UniqueContainerName("hpk"), s_threeLevels), _cancellation);

    private static object Session(string tenant, string user, string session, string id, int value) =>
        new { id, tenantId = tenant, userId = user, sessionId = session, value };

    [Fact]
    public async Task A_container_with_a_three_level_key_reads_back_as_created()
    {
        var container = await ThreeLevelContainerAsync();

        var read = await container.ReadContainerAsync(cancellationToken: _cancellation);
        using var raw = await container.ReadContainerStreamAsync(cancellationToken: _cancellation);
        var definition = (await BodyAsync(raw))!["partitionKey"]!;

        Assert.Equal(s_threeLevels, read.Resource.PartitionKeyPaths);
        Assert.Equal(PartitionKeyDefinitionVersion.V2, read.Resource.PartitionKeyDefinitionVersion);
        Assert.Equal("MultiHash", definition["kind"]!.GetValue<string>());
        Assert.Equal(s_threeLevels, definition["paths"]!.AsArray().Select(path => path!.GetValue<string>()));
    }

    [Fact]
    public async Task A_key_of_four_levels_is_refused_as_the_service_refuses_it()
    {
        var properties = new ContainerProperties(CosmosStandInFixture.UniqueContainerName("hpk"), ["/a", "/b", "/c", "/d"]);

        using var response = await cosmos.Client.GetDatabase(CosmosStandInFixture.Database).CreateContainerStreamAsync(properties, cancellationToken: _cancellation);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains("at most 3 paths", response.ErrorMessage, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Items_of_one_id_under_keys_that_share_the_first_level_stay_apart()
    {
        var container = await ThreeLevelContainerAsync();
        var first = Key("acme", "u1", "s1");
        var second = Key("acme", "u2", "s1");
        foreach (var (key, user, value) in new[] { (first, "u1", 1), (second, "u2", 2) })
        {
            using var batch = await container.CreateTransactionalBatch(key)
                .CreateItemStream(Stream(Session("acme", user, "s1", "1", value)))
                .CreateItemStream(Stream(Session("acme", user, "s1", "2", value * 10)))
                .ExecuteAsync(_cancellation);
            Assert.True(batch.IsSuccessStatusCode, $"{batch.StatusCode}: {batch.ErrorMessage}");
        }

        Assert.Equal(1, (await ReadAsync(container, "1", first, _cancellation))!["value"]!.GetValue<int>());
        Assert.Equal(2, (await ReadAsync(container, "1", second, _cancellation))!["value"]!.GetValue<int>());
        Assert.Null(await ReadAsync(container, "1", Key("acme", "u3", "s1"), _cancellation));

        using var many = await container.ReadManyItemsStreamAsync([("1", first), ("1", second), ("2", second)], cancellationToken: _cancellation);
        var found = (await BodyAsync(many.EnsureSuccessStatusCode()))!["Documents"]!.AsArray().Select(item => item!["value"]!.GetValue<int>());
        Assert.Equal([1, 2, 20], found.Order());

        var scoped = await QueryAsync(container, "SELECT * FROM c", new QueryRequestOptions { PartitionKey = second }, _cancellation);
        Assert.Equal([2, 20], scoped.Select(item => item["value"]!.GetValue<int>()).Order());
        Assert.All(scoped, item => Assert.False(item.ContainsKey("_standInKey"), "the stand-in's own key is not the client's to see"));
    }

    [Fact]
    public async Task A_query_by_a_key_prefix_is_refused_rather_than_answered_across_the_container()
    {
        var container = await ThreeLevelContainerAsync();
        using var created = await container.CreateItemStreamAsync(Stream(Session("acme", "u1", "s1", "a", 1)), Key("acme", "u1", "s1"), cancellationToken: _cancellation);

        using var iterator = container.GetItemQueryStreamIterator("SELECT * FROM c", requestOptions: new QueryRequestOptions { PartitionKey = Key("acme") });
        using var page = await iterator.ReadNextAsync(_cancellation);

        Assert.Equal(HttpStatusCode.BadRequest, page.StatusCode);
        Assert.Contains("prefix of a hierarchical key", page.ErrorMessage, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_item_whose_value_at_a_level_is_not_the_key_is_refused_with_sub_status_1001()
    {
        var container = await ThreeLevelContainerAsync();

        using var batch = await container.CreateTransactionalBatch(Key("acme", "u1", "s1"))
            .CreateItemStream(Stream(Session("acme", "u1", "s1", "ok", 1)))
            .CreateItemStream(Stream(Session("acme", "u9", "s1", "wrong", 1)))
            .ExecuteAsync(_cancellation);
        using var point = await container.CreateItemStreamAsync(Stream(Session("acme", "u1", "s2", "wrong", 1)), Key("acme", "u1", "s1"), cancellationToken: _cancellation);
        using var bulk = CosmosStandInFixture.CreateClient(cosmos.ConnectionString, bulk: true);
        using var bulkWrite = await bulk.GetContainer(CosmosStandInFixture.Database, container.Id)
            .CreateItemStreamAsync(Stream(Session("other", "u1", "s1", "wrong", 1)), Key("acme", "u1", "s1"), cancellationToken: _cancellation);

        Assert.Equal(HttpStatusCode.BadRequest, batch.StatusCode);
        Assert.Equal(HttpStatusCode.BadRequest, batch[1].StatusCode);
        Assert.Equal(HttpStatusCode.FailedDependency, batch[0].StatusCode);
        Assert.Equal((HttpStatusCode.BadRequest, "1001"), (point.StatusCode, point.Headers["x-ms-substatus"]));
        Assert.Equal((HttpStatusCode.BadRequest, "1001"), (bulkWrite.StatusCode, bulkWrite.Headers["x-ms-substatus"]));
        Assert.Null(await ReadAsync(container, "ok", Key("acme", "u1", "s1"), _cancellation));
    }

    [Fact]
    public async Task A_write_under_a_key_of_fewer_levels_than_the_container_has_is_refused()
    {
        var container = await ThreeLevelContainerAsync();

        using var batch = await container.CreateTransactionalBatch(Key("acme", "u1"))
            .CreateItemStream(Stream(Session("acme", "u1", "s1", "1", 1)))
            .ExecuteAsync(_cancellation);

        Assert.Equal(HttpStatusCode.BadRequest, batch.StatusCode);
        Assert.Null(await ReadAsync(container, "1", Key("acme", "u1", "s1"), _cancellation));
    }

    [Fact]
    public async Task Bulk_writes_each_item_under_its_own_full_key()
    {
        var container = await ThreeLevelContainerAsync();
        using var bulk = CosmosStandInFixture.CreateClient(cosmos.ConnectionString, bulk: true);
        var bulkContainer = bulk.GetContainer(CosmosStandInFixture.Database, container.Id);
        var keys = Enumerable.Range(0, 30).Select(i => (Tenant: $"t{i % 3}", User: $"u{i}", Value: i)).ToList();

        var written = await Task.WhenAll(keys.Select(async key =>
        {
            using var response = await bulkContainer.CreateItemStreamAsync(Stream(Session(key.Tenant, key.User, "s", "same-id", key.Value)), Key(key.Tenant, key.User, "s"), cancellationToken: _cancellation);
            return response.StatusCode;
        }));

        Assert.All(written, status => Assert.Equal(HttpStatusCode.Created, status));
        foreach (var key in keys)
        {
            Assert.Equal(key.Value, (await ReadAsync(container, "same-id", Key(key.Tenant, key.User, "s"), _cancellation))!["value"]!.GetValue<int>());
        }
    }

    [Fact]
    public async Task Nested_paths_are_keys_at_any_level()
    {
        var container = await CreateContainerAsync(cosmos.Client, new ContainerProperties(CosmosStandInFixture.UniqueContainerName("nested"), ["/customer/id", "/order/region"]), _cancellation);
        var key = Key("c1", "west");

        using var batch = await container.CreateTransactionalBatch(key)
            .CreateItemStream(Stream(new { id = "o1", customer = new { id = "c1", name = "Ann" }, order = new { region = "west" } }))
            .ExecuteAsync(_cancellation);
        using var wrong = await container.CreateItemStreamAsync(Stream(new { id = "o2", customer = new { id = "c1" }, order = new { region = "east" } }), key, cancellationToken: _cancellation);
        using var flat = await container.CreateItemStreamAsync(Stream(new { id = "o3", customer = "c1", order = new { region = "west" } }), key, cancellationToken: _cancellation);

        Assert.True(batch.IsSuccessStatusCode, $"{batch.StatusCode}: {batch.ErrorMessage}");
        Assert.Equal("Ann", (await ReadAsync(container, "o1", key, _cancellation))!["customer"]!["name"]!.GetValue<string>());
        Assert.Equal((HttpStatusCode.BadRequest, "1001"), (wrong.StatusCode, wrong.Headers["x-ms-substatus"]));
        Assert.Equal((HttpStatusCode.BadRequest, "1001"), (flat.StatusCode, flat.Headers["x-ms-substatus"]));
    }

    [Fact]
    public async Task A_single_nested_path_keys_items_by_the_nested_value()
    {
        var container = await CreateContainerAsync(cosmos.Client, new ContainerProperties(CosmosStandInFixture.UniqueContainerName("nested"), "/customer/id"), _cancellation);

        using var created = await container.CreateItemStreamAsync(Stream(new { id = "o1", customer = new { id = "c1" } }), new PartitionKey("c1"), cancellationToken: _cancellation);
        using var wrong = await container.CreateItemStreamAsync(Stream(new { id = "o2", customer = new { id = "c2" } }), new PartitionKey("c1"), cancellationToken: _cancellation);

        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        Assert.Equal((HttpStatusCode.BadRequest, "1001"), (wrong.StatusCode, wrong.Headers["x-ms-substatus"]));
        Assert.NotNull(await ReadAsync(container, "o1", new PartitionKey("c1"), _cancellation));
    }
}
