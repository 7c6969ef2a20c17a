using System.Text;
using System.Text.Json.Nodes;
using Loader.CosmosStandIn.Batches;

namespace Loader.Worker.Tests.StandIn.Batches;

/// <summary>Partial document update by the service's rules, on items alone: what each operation does, and what fails the patch.</summary>
public sealed class PatchApplierTests
{
    private static readonly JsonObject s_item = JsonNode.Parse("""{"id":"a","n":1,"tags":["x","y"],"address":{"city":"Oslo"}}""")!.AsObject();

    private static string Patched(string operations) =>
        PatchApplier.Apply(s_item, PatchSpec.Parse(Encoding.UTF8.GetBytes($$"""{"operations":{{operations}}}"""))).ToJsonString();

    [Theory]
    [InlineData("""[{"op":"set","path":"/n","value":2}]""", """{"id":"a","n":2,"tags":["x","y"],"address":{"city":"Oslo"}}""")]
    [InlineData("""[{"op":"set","path":"/tags/1","value":"z"}]""", """{"id":"a","n":1,"tags":["x","z"],"address":{"city":"Oslo"}}""")]
    [InlineData("""[{"op":"add","path":"/tags/1","value":"z"}]""", """{"id":"a","n":1,"tags":["x","z","y"],"address":{"city":"Oslo"}}""")]
    [InlineData("""[{"op":"add","path":"/tags/-","value":"z"}]""", """{"id":"a","n":1,"tags":["x","y","z"],"address":{"city":"Oslo"}}""")]
    [InlineData("""[{"op":"add","path":"/address/zip","value":"0150"}]""", """{"id":"a","n":1,"tags":["x","y"],"address":{"city":"Oslo","zip":"0150"}}""")]
    [InlineData("""[{"op":"replace","path":"/address/city","value":"Bergen"}]""", """{"id":"a","n":1,"tags":["x","y"],"address":{"city":"Bergen"}}""")]
    [InlineData("""[{"op":"remove","path":"/tags/0"}]""", """{"id":"a","n":1,"tags":["y"],"address":{"city":"Oslo"}}""")]
    [InlineData("""[{"op":"incr","path":"/n","value":5}]""", """{"id":"a","n":6,"tags":["x","y"],"address":{"city":"Oslo"}}""")]
    [InlineData("""[{"op":"incr","path":"/m","value":1.5}]""", """{"id":"a","n":1,"tags":["x","y"],"address":{"city":"Oslo"},"m":1.5}""")]
    [InlineData("""[{"op":"move","from":"/address/city","path":"/city"}]""", """{"id":"a","n":1,"tags":["x","y"],"address":{},"city":"Oslo"}""")]
    [InlineData("""[{"op":"set","path":"/a~1b","value":1},{"op":"remove","path":"/n"}]""", """{"id":"a","tags":["x","y"],"address":{"city":"Oslo"},"a/b":1}""")]
    public void Each_operation_changes_the_item_as_the_service_does(string operations, string expected)
    {
        Assert.True(JsonNode.DeepEquals(JsonNode.Parse(expected), JsonNode.Parse(Patched(operations))), Patched(operations));
    }

    [Theory]
    [InlineData("""[{"op":"replace","path":"/missing","value":1}]""", "Node to be replaced is absent")]
    [InlineData("""[{"op":"remove","path":"/missing"}]""", "Node to be removed is absent")]
    [InlineData("""[{"op":"set","path":"/no/parent","value":1}]""", "can't create path recursively")]
    [InlineData("""[{"op":"set","path":"/tags/5","value":1}]""", "out of array bounds")]
    [InlineData("""[{"op":"incr","path":"/address","value":1}]""", "not a number")]
    [InlineData("""[{"op":"move","from":"/missing","path":"/x"}]""", "Node to be moved is absent")]
    public void An_operation_that_breaks_a_rule_fails_the_patch_naming_it(string operations, string reason)
    {
        var failed = Assert.Throws<FormatException>(() => Patched(operations));

        Assert.StartsWith("For Operation(0): ", failed.Message, StringComparison.Ordinal);
        Assert.Contains(reason, failed.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("""{"operations":[]}""", "no operations")]
    [InlineData("""{"operations":[{"op":"copy","path":"/a","from":"/b"}]}""", "unsupported patch operation 'copy'")]
    [InlineData("""{"operations":[{"op":"set","path":"a","value":1}]}""", "must start with /")]
    [InlineData("""{"operations":[{"op":"set","path":"/a"}]}""", "set needs a \"value\"")]
    [InlineData("""{"nothing":1}""", "check syntax of patch specification")]
    public void A_spec_that_is_not_one_is_refused(string spec, string reason)
    {
        var refused = Assert.Throws<FormatException>(() => PatchSpec.Parse(Encoding.UTF8.GetBytes(spec)));

        Assert.Contains(reason, refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Eleven_operations_are_one_too_many()
    {
        var eleven = string.Join(",", Enumerable.Range(0, 11).Select(i => $$"""{"op":"set","path":"/p{{i}}","value":{{i}}}"""));

        var refused = Assert.Throws<FormatException>(() => PatchSpec.Parse(Encoding.UTF8.GetBytes($$"""{"operations":[{{eleven}}]}""")));

        Assert.Equal("The number of patch operations can't exceed 10; this patch has 11.", refused.Message);
    }
}
