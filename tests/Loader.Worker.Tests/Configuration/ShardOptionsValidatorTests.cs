using Loader.Worker.Configuration;

namespace Loader.Worker.Tests.Configuration;

public sealed class ShardOptionsValidatorTests
{
    [Fact]
    public void A_state_folder_and_a_queue_pass()
    {
        var shards = new ShardOptions { State = "https://account.blob.core.windows.net/loader-state/flights/", Queue = "https://account.queue.core.windows.net/loader-shards" };

        Assert.True(new ShardOptionsValidator("Loader:Shards", LoaderCommand.Work).Validate(null, shards).Succeeded);
    }

    [Fact]
    public void What_the_verb_needs_is_named_with_the_verb()
    {
        var result = new ShardOptionsValidator("Loader:Shards", LoaderCommand.Plan).Validate(null, new ShardOptions { Count = 0 });

        Assert.Contains(result.Failures!, failure => failure.StartsWith("Loader:Shards:State is required by plan:", StringComparison.Ordinal));
        Assert.Contains(result.Failures!, failure => failure.StartsWith("Loader:Shards:Queue is required by plan:", StringComparison.Ordinal));
        Assert.Contains("Loader:Shards:Count must be between 1 and 1000, was 0.", result.Failures!);
    }
}
