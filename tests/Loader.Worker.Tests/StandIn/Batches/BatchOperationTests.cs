using System.Net;
using System.Text.Json.Nodes;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Azure.Cosmos;
using static Loader.Worker.Tests.StandIn.StandInItems;

namespace Loader.Worker.Tests.StandIn.Batches;

/// <summary>
/// Every kind of operation, in transactional batches, in bulk and alone, through the real SDK against the stand-in:
/// create, upsert, replace, delete, read and patch, with the service's answers to a missing item (404) and to a patch
/// it refuses (400), and what each costs.
/// </summary>
public sealed class BatchOperationTests(CosmosStandInFixture cosmos)
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;

    private Task<Container> ContainerAsync() =>
        CreateContainerAsync(cosmos.Client, new ContainerProperties(CosmosStandInFixture.UniqueContainerName("ops"), "/pk"), _cancellation);

    private async Task SeedAsync(Container container, params object[] items)
    {
        foreach (var item in items)
        {
            using var response = await container.UpsertItemStreamAsync(Stream(item), new PartitionKey("p"), cancellationToken: _cancellation);
            Assert.True(response.IsSuccessStatusCode, $"{response.StatusCode}: {response.ErrorMessage}");
        }
    }

    private static PatchOperation[] SetOf(int count) => Enumerable.Range(0, count).Select(i => PatchOperation.Set($"/p{i}", i)).ToArray();

    [Fact]
    public async Task A_transactional_batch_runs_every_kind_of_operation_in_order()
    {
        var container = await ContainerAsync();
        await SeedAsync(container,
            new { id = "r", pk = "p", v = 1 },
            new { id = "d", pk = "p" },
            new { id = "read", pk = "p", v = 7 },
            new { id = "patched", pk = "p", n = 1, old = true, count = 5, tags = new[] { "a" }, address = new { city = "Oslo" } });

        using var batch = await container.CreateTransactionalBatch(new PartitionKey("p"))
            .CreateItemStream(Stream(new { id = "c", pk = "p" }))
            .UpsertItemStream(Stream(new { id = "u", pk = "p" }))
            .ReplaceItemStream("r", Stream(new { id = "r", pk = "p", v = 2 }))
            .DeleteItem("d")
            .ReadItem("read")
            .PatchItem("patched", [
                PatchOperation.Set("/n", 2), PatchOperation.Add("/tags/-", "b"), PatchOperation.Remove("/old"),
                PatchOperation.Replace("/address/city", "Bergen"), PatchOperation.Increment("/count", 3), PatchOperation.Add("/added", "x"),
            ])
            .PatchItem("c", [PatchOperation.Set("/later", true)])
            .ExecuteAsync(_cancellation);

        Assert.True(batch.IsSuccessStatusCode, $"{batch.StatusCode}: {batch.ErrorMessage}");
        Assert.Equal(
            [HttpStatusCode.Created, HttpStatusCode.Created, HttpStatusCode.OK, HttpStatusCode.NoContent, HttpStatusCode.OK, HttpStatusCode.OK, HttpStatusCode.OK],
            Enumerable.Range(0, batch.Count).Select(i => batch[i].StatusCode));
        Assert.False(string.IsNullOrEmpty(batch.Headers.Session), "the answer carries a session token, as the service's does");
        var patched = (await ReadAsync(container, "patched", new PartitionKey("p"), _cancellation))!;
        Assert.True(JsonNode.DeepEquals(
            JsonNode.Parse("""{"id":"patched","pk":"p","n":2,"count":8,"tags":["a","b"],"address":{"city":"Bergen"},"added":"x"}"""),
            WithoutSystemProperties(patched)));
        Assert.Equal(2, (await ReadAsync(container, "r", new PartitionKey("p"), _cancellation))!["v"]!.GetValue<int>());
        Assert.Null(await ReadAsync(container, "d", new PartitionKey("p"), _cancellation));
        Assert.True((await ReadAsync(container, "c", new PartitionKey("p"), _cancellation))!["later"]!.GetValue<bool>(), "a patch sees the create before it in the batch");
    }

    [Theory]
    [InlineData("replace")]
    [InlineData("delete")]
    [InlineData("patch")]
    public async Task An_operation_on_a_missing_item_fails_a_transactional_batch_with_404_and_writes_nothing(string kind)
    {
        var container = await ContainerAsync();
        var batch = container.CreateTransactionalBatch(new PartitionKey("p")).CreateItemStream(Stream(new { id = "new", pk = "p" }));
        batch = kind switch
        {
            "replace" => batch.ReplaceItemStream("missing", Stream(new { id = "missing", pk = "p" })),
            "delete" => batch.DeleteItem("missing"),
            _ => batch.PatchItem("missing", [PatchOperation.Set("/a", 1)]),
        };

        using var response = await batch.ExecuteAsync(_cancellation);

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        Assert.Equal((HttpStatusCode.FailedDependency, HttpStatusCode.NotFound), (response[0].StatusCode, response[1].StatusCode));
        Assert.Null(await ReadAsync(container, "new", new PartitionKey("p"), _cancellation));
    }

    [Fact]
    public async Task In_bulk_each_operation_has_its_own_answer_and_a_missing_item_is_404()
    {
        var container = await ContainerAsync();
        await SeedAsync(container, new { id = "present", pk = "p", n = 1 }, new { id = "gone", pk = "p" });
        using var bulk = CosmosStandInFixture.CreateClient(cosmos.ConnectionString, bulk: true);
        var items = bulk.GetContainer(CosmosStandInFixture.Database, container.Id);
        var key = new PartitionKey("p");

        var answers = await Task.WhenAll(
            Status(items.PatchItemStreamAsync("present", key, [PatchOperation.Increment("/n", 1), PatchOperation.Set("/nested", new { a = 1 })], cancellationToken: _cancellation)),
            Status(items.PatchItemStreamAsync("missing", key, [PatchOperation.Set("/a", 1)], cancellationToken: _cancellation)),
            Status(items.DeleteItemStreamAsync("gone", key, cancellationToken: _cancellation)),
            Status(items.DeleteItemStreamAsync("never", key, cancellationToken: _cancellation)),
            Status(items.ReplaceItemStreamAsync(Stream(new { id = "absent", pk = "p" }), "absent", key, cancellationToken: _cancellation)),
            Status(items.CreateItemStreamAsync(Stream(new { id = "fresh", pk = "p" }), key, cancellationToken: _cancellation)));

        Assert.Equal(
            [HttpStatusCode.OK, HttpStatusCode.NotFound, HttpStatusCode.NoContent, HttpStatusCode.NotFound, HttpStatusCode.NotFound, HttpStatusCode.Created],
            answers);
        var present = (await ReadAsync(container, "present", key, _cancellation))!;
        Assert.Equal((2, 1), (present["n"]!.GetValue<int>(), present["nested"]!["a"]!.GetValue<int>()));
        Assert.Null(await ReadAsync(container, "gone", key, _cancellation));
    }

    [Fact]
    public async Task Point_patch_replace_and_delete_answer_as_the_service()
    {
        var container = await ContainerAsync();
        await SeedAsync(container, new { id = "a", pk = "p", list = new[] { 1, 2, 3 } });
        var key = new PartitionKey("p");

        using var patched = await container.PatchItemStreamAsync("a", key, [PatchOperation.Set("/list/1", 20), PatchOperation.Add("/list/0", 0), PatchOperation.Remove("/list/3")], cancellationToken: _cancellation);
        using var missingPatch = await container.PatchItemStreamAsync("zz", key, [PatchOperation.Set("/x", 1)], cancellationToken: _cancellation);
        using var missingReplace = await container.ReplaceItemStreamAsync(Stream(new { id = "zz", pk = "p" }), "zz", key, cancellationToken: _cancellation);
        using var deleted = await container.DeleteItemStreamAsync("a", key, cancellationToken: _cancellation);
        using var missingDelete = await container.DeleteItemStreamAsync("a", key, cancellationToken: _cancellation);

        Assert.Equal(HttpStatusCode.OK, patched.StatusCode);
        Assert.Equal("[0,1,20]", (await BodyAsync(patched))!["list"]!.ToJsonString());
        Assert.Equal((HttpStatusCode.NotFound, HttpStatusCode.NotFound), (missingPatch.StatusCode, missingReplace.StatusCode));
        Assert.Equal((HttpStatusCode.NoContent, HttpStatusCode.NotFound), (deleted.StatusCode, missingDelete.StatusCode));
    }

    [Fact]
    public async Task A_patch_of_more_than_ten_operations_is_refused_with_400()
    {
        var container = await ContainerAsync();
        await SeedAsync(container, new { id = "a", pk = "p" });

        using var ten = await container.PatchItemStreamAsync("a", new PartitionKey("p"), SetOf(10), cancellationToken: _cancellation);
        using var eleven = await container.PatchItemStreamAsync("a", new PartitionKey("p"), SetOf(11), cancellationToken: _cancellation);
        using var batch = await container.CreateTransactionalBatch(new PartitionKey("p")).PatchItem("a", SetOf(11)).ExecuteAsync(_cancellation);

        Assert.Equal(HttpStatusCode.OK, ten.StatusCode);
        Assert.Equal(HttpStatusCode.BadRequest, eleven.StatusCode);
        Assert.Contains("can't exceed 10", eleven.ErrorMessage, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.BadRequest, batch.StatusCode);
    }

    [Theory]
    [InlineData("/pk")]
    [InlineData("/id")]
    [InlineData("/_etag")]
    public async Task A_patch_may_not_change_the_partition_key_the_id_or_a_system_property(string path)
    {
        var container = await ContainerAsync();
        await SeedAsync(container, new { id = "a", pk = "p" });

        using var response = await container.PatchItemStreamAsync("a", new PartitionKey("p"), [PatchOperation.Set(path, "other")], cancellationToken: _cancellation);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal("p", (await ReadAsync(container, "a", new PartitionKey("p"), _cancellation))!["pk"]!.GetValue<string>());
    }

    [Fact]
    public async Task A_patch_whose_parent_path_is_missing_is_refused_with_400()
    {
        var container = await ContainerAsync();
        await SeedAsync(container, new { id = "a", pk = "p" });

        using var response = await container.PatchItemStreamAsync("a", new PartitionKey("p"), [PatchOperation.Set("/no/such/parent", 1)], cancellationToken: _cancellation);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
    }

    [Fact]
    public async Task A_patch_costs_the_write_of_the_item_it_leaves_as_a_replace_of_that_item_does()
    {
        await using var own = await cosmos.StartOwnStandInAsync(_cancellation);
        using var client = CosmosStandInFixture.CreateClient(own.StandIn.ConnectionString(CosmosStandInFixture.Key));
        var container = client.GetContainer(CosmosStandInFixture.Database, (await ContainerAsync()).Id);
        var key = new PartitionKey("p");
        var filler = new string('x', 2500); // the item is between 2 and 3 KiB: 15 RU to write at 5 RU per KiB
        using var seeded = await container.CreateItemStreamAsync(Stream(new { id = "a", pk = "p", filler, n = 1 }), key, cancellationToken: _cancellation);

        using var patch = await container.CreateTransactionalBatch(key).PatchItem("a", [PatchOperation.Set("/n", 2)]).ExecuteAsync(_cancellation);
        using var replace = await container.CreateTransactionalBatch(key).ReplaceItemStream("a", Stream(new { id = "a", pk = "p", filler, n = 3 })).ExecuteAsync(_cancellation);
        using var growing = await container.PatchItemStreamAsync("a", key, [PatchOperation.Set("/more", filler)], cancellationToken: _cancellation);

        Assert.Equal((15.0, 15.0), (patch.RequestCharge, replace.RequestCharge));
        Assert.Equal(25.0, growing.Headers.RequestCharge); // the patched item is over 4 KiB
        Assert.Equal(15.0 + 15.0 + 15.0 + 25.0, own.StandIn.Stats.Snapshot().RequestChargeTotal);
    }

    private static async Task<HttpStatusCode> Status(Task<ResponseMessage> call)
    {
        using var response = await call;
        return response.StatusCode;
    }

    private static JsonObject WithoutSystemProperties(JsonObject item)
    {
        foreach (var system in new[] { "_rid", "_self", "_etag", "_ts", "_attachments" })
        {
            item.Remove(system);
        }

        return item;
    }
}
