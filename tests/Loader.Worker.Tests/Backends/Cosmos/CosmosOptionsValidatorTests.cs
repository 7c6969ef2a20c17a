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
}
