using System.Text;
using Loader.Worker.JsonLines;

namespace Loader.Worker.Tests.JsonLines;

public sealed class JsonPathStringsTests
{
    [Fact]
    public void A_path_seen_again_is_the_same_string()
    {
        var strings = new JsonPathStrings();

        var first = strings.Of("customer.id"u8);

        Assert.Equal("customer.id", first);
        Assert.Same(first, strings.Of("customer.id"u8));
    }

    [Fact]
    public void Ever_new_paths_stop_being_kept_at_the_bound()
    {
        var strings = new JsonPathStrings();

        for (var i = 0; i < JsonPathStrings.Capacity * 3; i++)
        {
            Assert.Equal($"id{i}", strings.Of(Encoding.UTF8.GetBytes($"id{i}")));
        }

        Assert.Equal(JsonPathStrings.Capacity, strings.Count);
        var late = $"id{JsonPathStrings.Capacity * 2}";
        Assert.Equal(late, strings.Of(Encoding.UTF8.GetBytes(late)));
        Assert.Same(strings.Of("id0"u8), strings.Of("id0"u8));
    }
}
