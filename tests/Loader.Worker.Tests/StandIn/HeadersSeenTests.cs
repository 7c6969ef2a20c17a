using System.Net;
using Loader.CosmosStandIn;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Azure.Cosmos;
using static Loader.Worker.Tests.StandIn.StandInItems;

namespace Loader.Worker.Tests.StandIn;

/// <summary>
/// What the stand-in records of what the SDK sends: the priority level and throughput bucket set on the client, per
/// kind of request (so a load can show it set them at the client level, where they hold in bulk mode too), and the
/// <c>ttl</c> of the items written, stored as given.
/// </summary>
public sealed class HeadersSeenTests(CosmosStandInFixture cosmos)
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task The_priority_level_and_throughput_bucket_of_the_client_are_seen_on_every_kind_of_request(bool bulk)
    {
        await using var own = await cosmos.StartOwnStandInAsync(_cancellation);
        var name = (await CreateContainerAsync(cosmos.Client, new ContainerProperties(CosmosStandInFixture.UniqueContainerName("hdr"), "/pk"), _cancellation)).Id;
        using var client = CosmosStandInFixture.CreateClient(own.StandIn.ConnectionString(CosmosStandInFixture.Key), bulk, options =>
        {
            options.PriorityLevel = PriorityLevel.Low;
            options.ThroughputBucket = 2;
        });
        var container = client.GetContainer(CosmosStandInFixture.Database, name);
        var key = new PartitionKey("p");

        using var created = await container.CreateItemStreamAsync(Stream(new { id = "a", pk = "p" }), key, cancellationToken: _cancellation);
        using var read = await container.ReadItemStreamAsync("a", key, cancellationToken: _cancellation);
        await QueryAsync(container, "SELECT * FROM c", new QueryRequestOptions { PartitionKey = key }, _cancellation);
        if (!bulk)
        {
            using var batch = await container.CreateTransactionalBatch(key).UpsertItemStream(Stream(new { id = "b", pk = "p" })).ExecuteAsync(_cancellation);
            Assert.True(batch.IsSuccessStatusCode);
        }

        Assert.Equal((HttpStatusCode.Created, HttpStatusCode.OK), (created.StatusCode, read.StatusCode));
        var stats = own.StandIn.Stats.Snapshot();
        // In bulk mode the SDK packs point reads into bulk requests too.
        var items = bulk ? new[] { RequestKind.Bulk } : [RequestKind.PointWrite, RequestKind.PointRead, RequestKind.TransactionalBatch];
        foreach (var kind in items.Append(RequestKind.Query))
        {
            var seen = stats.Seen(kind);
            Assert.True(seen.Count > 0, $"no {kind} request seen");
            Assert.Equal((seen.Count, seen.Count), (seen.PriorityLevels.GetValueOrDefault("Low"), seen.ThroughputBuckets.GetValueOrDefault("2")));
        }
    }

    [Fact]
    public async Task A_client_that_sets_neither_sends_neither()
    {
        await using var own = await cosmos.StartOwnStandInAsync(_cancellation);
        var name = (await CreateContainerAsync(cosmos.Client, new ContainerProperties(CosmosStandInFixture.UniqueContainerName("hdr"), "/pk"), _cancellation)).Id;
        using var client = CosmosStandInFixture.CreateClient(own.StandIn.ConnectionString(CosmosStandInFixture.Key));

        using var batch = await client.GetContainer(CosmosStandInFixture.Database, name).CreateTransactionalBatch(new PartitionKey("p"))
            .UpsertItemStream(Stream(new { id = "a", pk = "p" })).ExecuteAsync(_cancellation);

        var seen = own.StandIn.Stats.Snapshot().Seen(RequestKind.TransactionalBatch);
        Assert.Equal(1, seen.Count);
        Assert.Empty(seen.PriorityLevels);
        Assert.Empty(seen.ThroughputBuckets);
    }

    [Fact]
    public async Task The_ttl_of_items_written_is_counted_and_stored_as_given_and_a_default_ttl_reads_back()
    {
        await using var own = await cosmos.StartOwnStandInAsync(_cancellation);
        var properties = new ContainerProperties(CosmosStandInFixture.UniqueContainerName("ttl"), "/pk") { DefaultTimeToLive = 3600 };
        var name = (await CreateContainerAsync(cosmos.Client, properties, _cancellation)).Id;
        using var client = CosmosStandInFixture.CreateClient(own.StandIn.ConnectionString(CosmosStandInFixture.Key));
        using var bulkClient = CosmosStandInFixture.CreateClient(own.StandIn.ConnectionString(CosmosStandInFixture.Key), bulk: true);
        var container = client.GetContainer(CosmosStandInFixture.Database, name);
        var key = new PartitionKey("p");

        using var batch = await container.CreateTransactionalBatch(key)
            .CreateItemStream(Stream(new { id = "a", pk = "p", ttl = 60 }))
            .CreateItemStream(Stream(new { id = "b", pk = "p", ttl = -1 }))
            .CreateItemStream(Stream(new { id = "c", pk = "p" }))
            .ExecuteAsync(_cancellation);
        using var bulk = await bulkClient.GetContainer(CosmosStandInFixture.Database, name).UpsertItemStreamAsync(Stream(new { id = "d", pk = "p", ttl = 60 }), key, cancellationToken: _cancellation);
        using var patched = await container.PatchItemStreamAsync("c", key, [PatchOperation.Set("/ttl", 5)], cancellationToken: _cancellation);

        Assert.True(batch.IsSuccessStatusCode);
        Assert.Equal(3600, (await container.ReadContainerAsync(cancellationToken: _cancellation)).Resource.DefaultTimeToLive);
        Assert.Equal(new Dictionary<string, long> { ["60"] = 2, ["-1"] = 1, ["5"] = 1 }, own.StandIn.Stats.Snapshot().ItemTtls);
        Assert.Equal(60, (await ReadAsync(container, "a", key, _cancellation))!["ttl"]!.GetValue<int>());
        Assert.Equal(5, (await ReadAsync(container, "c", key, _cancellation))!["ttl"]!.GetValue<int>());
    }
}
