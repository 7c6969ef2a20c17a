using System.Text.Json;
using Loader.CosmosStandIn.Partitioning;

namespace Loader.Worker.Tests.StandIn.Partitioning;

/// <summary>Partition key values as the SDK sends them: one canonical text however they are written, and which items they name.</summary>
public sealed class PartitionKeyValueTests
{
    private static readonly PartitionKeyDefinition s_hierarchical = new(
        [PartitionKeyPath.Parse("/tenant"), PartitionKeyPath.Parse("/user/id"), PartitionKeyPath.Parse("/n")], PartitionKeyDefinition.MultiHash);

    private static JsonElement Item(string json) => JsonDocument.Parse(json).RootElement;

    [Fact]
    public void Escapes_and_number_forms_do_not_change_the_canonical_value()
    {
        var sent = PartitionKeyValue.TryParse("""["caf\u00e9",{"a":1}, 5.0, true, null]""")!;
        var written = PartitionKeyValue.TryParse("""["café",{"a":1},5,true,null]""")!;

        Assert.Equal(written.Canonical, sent.Canonical);
        Assert.Equal(5, sent.Components.Count);
        Assert.NotEqual(PartitionKeyValue.TryParse("""["cafe"]""")!.Canonical, PartitionKeyValue.TryParse("""["café"]""")!.Canonical);
    }

    [Fact]
    public void A_full_key_names_the_items_whose_value_at_every_path_is_its_component()
    {
        var key = PartitionKeyValue.TryParse("""["acme","u1",5.0]""")!;

        Assert.True(key.IsComplete(s_hierarchical));
        Assert.True(key.Matches(Item("""{"tenant":"acme","user":{"id":"u1"},"n":5}"""), s_hierarchical));
        Assert.False(key.Matches(Item("""{"tenant":"acme","user":{"id":"u2"},"n":5}"""), s_hierarchical));
        Assert.False(key.Matches(Item("""{"tenant":"acme","user":"u1","n":5}"""), s_hierarchical));
        Assert.False(key.Matches(Item("""{"tenant":"acme","user":{"id":"u1"},"n":"5"}"""), s_hierarchical));
    }

    [Fact]
    public void An_undefined_component_names_the_items_without_that_path_and_a_prefix_names_all_under_it()
    {
        var undefined = PartitionKeyValue.TryParse("""["acme",{},{}]""")!;
        var prefix = PartitionKeyValue.TryParse("""["acme"]""")!;

        Assert.True(undefined.Matches(Item("""{"tenant":"acme"}"""), s_hierarchical));
        Assert.False(undefined.Matches(Item("""{"tenant":"acme","n":1}"""), s_hierarchical));
        Assert.False(prefix.IsComplete(s_hierarchical));
        Assert.True(prefix.Matches(Item("""{"tenant":"acme","user":{"id":"anyone"},"n":1}"""), s_hierarchical));
    }

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    [InlineData("not json")]
    public void What_is_not_json_is_no_value(string? sent)
    {
        Assert.Null(PartitionKeyValue.TryParse(sent));
    }

    [Theory]
    [InlineData("Hash", new[] { "/a", "/b" }, "kind MultiHash")]
    [InlineData("MultiHash", new[] { "/a", "/b", "/c", "/d" }, "at most 3 paths")]
    [InlineData("Hash", new string[0], "at least one path")]
    public void A_definition_the_service_refuses_says_why(string kind, string[] paths, string reason)
    {
        var definition = new PartitionKeyDefinition(paths.Select(PartitionKeyPath.Parse).ToList(), kind);

        Assert.Contains(reason, definition.Problem(), StringComparison.Ordinal);
    }
}
