using Loader.Worker.Backends.Cosmos;

namespace Loader.Worker.Tests.Backends.Cosmos;

public sealed class CosmosOptionsValidatorTests
{
    [Fact]
    public void A_named_container_on_an_https_endpoint_passes()
    {
        Assert.True(new CosmosOptionsValidator("Loader:Cosmos").Validate(null, new CosmosOptions { Database = "loads", Container = "flights", Endpoint = "https://account.documents.azure.com:443/" }).Succeeded);
    }

    [Fact]
    public void Missing_names_no_way_in_a_key_path_with_an_empty_name_and_low_throughput_are_each_named()
    {
        var result = new CosmosOptionsValidator("Loader:Cosmos").Validate(null, new CosmosOptions { Database = "", Container = " ", PartitionKeyPath = "/a//b", Throughput = 100 });

        Assert.Equal(
            [
                "Loader:Cosmos:Database is required: the database name.",
                "Loader:Cosmos:Container is required: the container name.",
                "Loader:Cosmos:ConnectionString or Loader:Cosmos:Endpoint is required to reach the account.",
                "Loader:Cosmos:PartitionKeyPath '/a//b' must be / and a property name, nested with more /name, e.g. /pk or /customer/id.",
                "Loader:Cosmos:Throughput must be at least 400, was 100.",
            ],
            result.Failures!);
    }


    private static List<string> Failures(Action<CosmosOptions> configure)
    {
        var options = new CosmosOptions { Database = "loads", Container = "flights", Endpoint = "https://account.documents.azure.com:443/" };
        configure(options);
        return new CosmosOptionsValidator("Loader:Cosmos").Validate(null, options).Failures?.ToList() ?? [];
    }

    [Theory]
    [InlineData("/tenantId,/userId,/sessionId")]
    [InlineData("/origin, /dest")]
    [InlineData("/customer/id,/order/id")]
    public void One_to_three_paths_each_top_level_or_nested_pass(string paths)
    {
        Assert.Empty(Failures(options => options.PartitionKeyPaths = paths));
    }

    [Fact]
    public void A_nested_single_path_passes()
    {
        Assert.Empty(Failures(options => options.PartitionKeyPath = "/customer/id"));
    }

    [Theory]
    [InlineData("/a,/b,/c,/d", "Loader:Cosmos:PartitionKeyPaths '/a,/b,/c,/d' has 4 paths; a hierarchical partition key has at most 3.")]
    [InlineData("/a,b", "Loader:Cosmos:PartitionKeyPaths: 'b' must be / and a property name, nested with more /name, e.g. /tenantId or /customer/id.")]
    [InlineData("/a,,/b", "Loader:Cosmos:PartitionKeyPaths: '' must be / and a property name, nested with more /name, e.g. /tenantId or /customer/id.")]
    [InlineData("/a,/a", "Loader:Cosmos:PartitionKeyPaths names '/a' twice: each level of the key has its own path.")]
    [InlineData("/a,/a/b", "Loader:Cosmos:PartitionKeyPaths names '/a' and '/a/b': an item cannot have a value at a path and within it.")]
    public void Paths_the_service_would_refuse_are_named(string paths, string failure)
    {
        Assert.Equal([failure], Failures(options => options.PartitionKeyPaths = paths));
    }

    [Fact]
    public void Paths_in_both_settings_are_refused()
    {
        Assert.Equal(
            ["Loader:Cosmos:PartitionKeyPaths '/a,/b' and Loader:Cosmos:PartitionKeyPath '/pk2' are both set: give the key's paths in one of them."],
            Failures(options => (options.PartitionKeyPaths, options.PartitionKeyPath) = ("/a,/b", "/pk2")));
    }

    [Theory]
    [InlineData("")]
    [InlineData(" ")]
    [InlineData("a b")]
    public void A_path_separator_that_is_empty_or_holds_whitespace_is_refused(string separator)
    {
        Assert.Equal(
            [$"Loader:Cosmos:PathSeparator '{separator}' must be one or more characters without whitespace, e.g. '.'."],
            Failures(options => options.PathSeparator = separator));
    }

    [Fact]
    public void A_fixed_ttl_and_a_ttl_column_together_a_ttl_of_0_and_a_bucket_outside_1_to_5_are_each_named()
    {
        var options = new CosmosOptions { Database = "loads", Container = "flights", Endpoint = "https://account.documents.azure.com:443/", TimeToLive = 0, TimeToLiveColumn = "expires", ThroughputBucket = 6 };

        var result = new CosmosOptionsValidator("Loader:Cosmos").Validate(null, options);

        Assert.Equal(
            [
                "Loader:Cosmos:ThroughputBucket must be between 1 and 5, was 6.",
                "Loader:Cosmos:TimeToLive 0 is not a time to live the service takes: give -1 (never expires) or seconds from 1.",
                "Loader:Cosmos:TimeToLive and Loader:Cosmos:TimeToLiveColumn are both set: give one (a fixed ttl, or each row's from a column).",
            ],
            result.Failures!);
    }
}
