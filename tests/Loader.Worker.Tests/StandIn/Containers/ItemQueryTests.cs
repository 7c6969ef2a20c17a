using Loader.Worker.Tests.Infrastructure;
using Microsoft.Azure.Cosmos;
using static Loader.Worker.Tests.StandIn.StandInItems;

namespace Loader.Worker.Tests.StandIn.Containers;

/// <summary>Queries through the real SDK against the stand-in: scoped to a partition key as the service scopes them, and charged by what they return.</summary>
public sealed class ItemQueryTests(CosmosStandInFixture cosmos)
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;

    private async Task<Container> SeededAsync()
    {
        var container = await CreateContainerAsync(cosmos.Client, new ContainerProperties(CosmosStandInFixture.UniqueContainerName("q"), "/pk"), _cancellation);
        foreach (var (pk, id) in new[] { ("a", "1"), ("a", "2"), ("a", "3"), ("b", "1") })
        {
            using var created = await container.CreateItemStreamAsync(Stream(new { id, pk }), new PartitionKey(pk), cancellationToken: _cancellation);
            Assert.True(created.IsSuccessStatusCode);
        }

        return container;
    }

    [Fact]
    public async Task A_query_scoped_to_a_partition_key_finds_only_that_partitions_items()
    {
        var container = await SeededAsync();

        var scoped = await QueryAsync(container, "SELECT * FROM c WHERE c.id = '1'", new QueryRequestOptions { PartitionKey = new PartitionKey("b") }, _cancellation);

        Assert.Equal("b", Assert.Single(scoped)["pk"]!.GetValue<string>());
    }

    [Fact]
    public async Task A_read_many_is_charged_a_read_for_each_item_it_returns()
    {
        var container = await SeededAsync();

        using var many = await container.ReadManyItemsStreamAsync([("1", new PartitionKey("a")), ("2", new PartitionKey("a")), ("3", new PartitionKey("a")), ("9", new PartitionKey("a"))], cancellationToken: _cancellation);
        using var query = container.GetItemQueryStreamIterator("SELECT * FROM c WHERE c.id = 'none'");
        using var none = await query.ReadNextAsync(_cancellation);

        Assert.True(many.IsSuccessStatusCode);
        Assert.Equal(3.0, many.Headers.RequestCharge); // three items under a kilobyte, 1 RU each
        Assert.Equal(1.0, none.Headers.RequestCharge); // a query that finds nothing still costs
    }
}
