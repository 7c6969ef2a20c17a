using System.Text.Json.Nodes;
using Loader.Abstractions;
using Loader.Worker.Backends.Cosmos;
using Loader.Worker.Tests.Backends.Cosmos.Doubles;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Tests.Backends.Cosmos;

/// <summary>
/// The operation each write mode makes of a row, which both writers send. The stored items for Merge are read from a
/// TEST DOUBLE of the SDK's container (the read itself runs against the stand-in in <see cref="CosmosAdapterTests"/>).
/// </summary>
public sealed class CosmosOperationBuilderTests
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly CosmosOperationBuilder _builder = new(new CosmosItemJson(new CosmosOptions().KeyPaths, "."), new CosmosPatch("."));

    private static LoadEntity Row(string id, string value) => new("p", id, [EntityProperty.FromString("a", value)], new RowOrigin(1, 2));

    private static JsonNode Body(CosmosOperation operation) => JsonNode.Parse(operation.Body)!;

    [Theory]
    [InlineData(nameof(WriteMode.Upsert), nameof(CosmosOperationKind.Upsert))]
    [InlineData(nameof(WriteMode.Insert), nameof(CosmosOperationKind.Create))]
    [InlineData(nameof(WriteMode.Replace), nameof(CosmosOperationKind.Replace))]
    [InlineData(nameof(WriteMode.Delete), nameof(CosmosOperationKind.Delete))]
    public async Task Upsert_upserts_insert_creates_replace_replaces_the_row_as_it_is_and_delete_deletes_by_id_without_reading(string modeName, string kindName)
    {
        var mode = Enum.Parse<WriteMode>(modeName);
        Assert.False(CosmosOperationBuilder.ReadsStoredItems(mode));

        await using var operation = _builder.Build(Row("k", "v"), mode, stored: null);

        Assert.Equal((Enum.Parse<CosmosOperationKind>(kindName), "k", null), (operation.Kind, operation.Id, operation.IfMatchEtag));
        if (mode == WriteMode.Delete)
        {
            Assert.Equal(0, operation.Body.Length); // a delete sends the id alone
        }
        else
        {
            Assert.Equal("v", Body(operation)["a"]!.GetValue<string>());
        }
    }

    [Fact]
    public async Task Merge_patches_a_stored_item_with_a_set_per_property_and_creates_a_missing_one()
    {
        Assert.True(CosmosOperationBuilder.ReadsStoredItems(WriteMode.Merge));
        var batch = new EntityBatch("p", [Row("stored", "new"), Row("missing", "x")], WriteMode.Merge);
        using var stored = await StoredAsync(batch, """{"id":"stored","pk":"p","a":"old","b":"kept"}""");

        await using var patch = _builder.Build(batch.Entities[0], WriteMode.Merge, stored);
        await using var create = _builder.Build(batch.Entities[1], WriteMode.Merge, stored);

        Assert.Equal((CosmosOperationKind.Patch, "stored", null), (patch.Kind, patch.Id, patch.IfMatchEtag));
        var set = Assert.Single(patch.Patch);
        Assert.Equal((PatchOperationType.Set, "/a"), (set.OperationType, set.Path));
        Assert.Equal((CosmosOperationKind.Create, "missing", null), (create.Kind, create.Id, create.IfMatchEtag));
    }

    [Fact]
    public async Task Merge_of_a_row_with_more_properties_than_a_patch_allows_replaces_the_stored_item_under_its_etag_with_the_row_laid_over_it()
    {
        var properties = Enumerable.Range(0, 11).Select(i => EntityProperty.FromInt32($"c{i}", i)).ToArray();
        var batch = new EntityBatch("p", [new LoadEntity("p", "stored", properties, new RowOrigin(1, 2))], WriteMode.Merge);
        using var stored = await StoredAsync(batch, """{"id":"stored","pk":"p","c0":-1,"b":"kept"}""");

        await using var replace = _builder.Build(batch.Entities[0], WriteMode.Merge, stored);

        Assert.Equal((CosmosOperationKind.Replace, "stored", stored.Items["stored"].ETag), (replace.Kind, replace.Id, replace.IfMatchEtag));
        Assert.NotEmpty(replace.IfMatchEtag!);
        var merged = Body(replace);
        Assert.Equal((0, 10, "kept"), (merged["c0"]!.GetValue<int>(), merged["c10"]!.GetValue<int>(), merged["b"]!.GetValue<string>()));
    }

    [Theory]
    [InlineData("nested")]
    [InlineData("json")]
    public async Task Merge_of_a_row_with_a_nested_name_or_a_json_cell_replaces_the_stored_item_rather_than_patching_it(string kind)
    {
        var property = kind == "nested" ? EntityProperty.FromString(PropertyName.Of("address.city"), "Oslo") : EntityProperty.FromJson(PropertyName.Of("tags"), "[1,2]");
        var batch = new EntityBatch("p", [new LoadEntity("p", "stored", [property], new RowOrigin(1, 2))], WriteMode.Merge);
        using var stored = await StoredAsync(batch, """{"id":"stored","pk":"p","b":"kept"}""");

        await using var replace = _builder.Build(batch.Entities[0], WriteMode.Merge, stored);

        Assert.Equal(CosmosOperationKind.Replace, replace.Kind);
        Assert.Equal("kept", Body(replace)["b"]!.GetValue<string>());
    }

    [Fact]
    public async Task Merge_under_a_time_to_live_setting_replaces_the_stored_item_with_the_ttl_rather_than_patching_it()
    {
        var options = new CosmosOptions { TimeToLive = 3600 };
        var builder = new CosmosOperationBuilder(
            new CosmosItemJson(options.KeyPaths, ".", CosmosItemTimeToLive.Of(options)), new CosmosPatch(".", writesTimeToLive: true));
        var batch = new EntityBatch("p", [Row("stored", "new")], WriteMode.Merge);
        using var stored = await StoredAsync(batch, """{"id":"stored","pk":"p","a":"old","b":"kept"}""");

        await using var replace = builder.Build(batch.Entities[0], WriteMode.Merge, stored);

        Assert.Equal(CosmosOperationKind.Replace, replace.Kind);
        var merged = Body(replace);
        Assert.Equal(("new", "kept", 3600), (merged["a"]!.GetValue<string>(), merged["b"]!.GetValue<string>(), merged["ttl"]!.GetValue<int>()));
    }

    private async Task<CosmosStoredItems> StoredAsync(EntityBatch batch, string item)
    {
        var container = new ContainerDouble();
        container.Seed("p", "stored", item);
        return await CosmosStoredItems.ReadAsync(container, batch, new PartitionKey("p"), _cancellation);
    }
}
