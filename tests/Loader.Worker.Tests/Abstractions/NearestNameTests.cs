using Loader.Abstractions;

namespace Loader.Worker.Tests.Abstractions;

public sealed class NearestNameTests
{
    [Theory]
    [InlineData("Loader:WriteMdoe", "Loader:WriteMode")] // two letters swapped: one edit
    [InlineData("loader:writemode", "Loader:WriteMode")] // case is no difference
    [InlineData("inptu", "input")]
    [InlineData("batchsize", "batch-size")]
    [InlineData("Loader:Retry:MaxAtempts", "Loader:Retry:MaxAttempts")]
    public void A_typo_finds_the_name_meant(string typed, string meant)
    {
        Assert.Equal(meant, NearestName.Of(typed, ["Loader:WriteMode", "Loader:BatchSize", "Loader:Retry:MaxAttempts", "input", "batch-size", "table"]));
    }

    [Theory]
    [InlineData("Loader:Foo")] // nothing near
    [InlineData("n")] // one letter from 'v', but that is every letter of it
    [InlineData("count")]
    public void A_name_near_nothing_finds_nothing(string typed)
    {
        Assert.Null(NearestName.Of(typed, ["Loader:WriteMode", "Loader:Check", "pk", "rk", "v"]));
    }

    [Theory]
    [InlineData("", "", 0)]
    [InlineData("abc", "", 3)]
    [InlineData("kitten", "sitting", 3)]
    [InlineData("ab", "ba", 1)]
    [InlineData("Mode", "mdoe", 1)]
    public void The_distance_counts_edits_with_a_swap_as_one(string a, string b, int distance)
    {
        Assert.Equal(distance, NearestName.Distance(a, b));
        Assert.Equal(distance, NearestName.Distance(b, a));
    }
}
