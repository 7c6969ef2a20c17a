using System.Net;
using Loader.CosmosStandIn;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Azure.Cosmos;
using static Loader.Worker.Tests.StandIn.StandInItems;

namespace Loader.Worker.Tests.StandIn;

/// <summary>
/// The two kinds of 429 a load can meet, through the real SDK: sub-status 3200 when the request-unit budget is spent,
/// 3212 when the throughput bucket the client names has spent its cap (<c>--bucket-ru-per-second</c>), counted apart.
/// </summary>
public sealed class ThroughputBucketTests(CosmosStandInFixture cosmos) : IAsyncDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly List<IAsyncDisposable> _owned = [];

    public async ValueTask DisposeAsync()
    {
        foreach (var owned in _owned)
        {
            await owned.DisposeAsync();
        }
    }

    /// <summary>A stand-in of the test's own with <paramref name="options"/>, a container on it, and an SDK client naming <paramref name="bucket"/>.</summary>
    private async Task<(StandInHost StandIn, Container Container)> StartAsync(StandInOptions options, int? bucket, bool bulk = false)
    {
        var standIn = await cosmos.StartStandInAsync(options, _cancellation);
        _owned.Add(standIn);
        var name = (await CreateContainerAsync(cosmos.Client, new ContainerProperties(CosmosStandInFixture.UniqueContainerName("tb"), "/pk"), _cancellation)).Id;
        var client = CosmosStandInFixture.CreateClient(standIn.ConnectionString(CosmosStandInFixture.Key), bulk, clientOptions => clientOptions.ThroughputBucket = bucket);
        _owned.Add(new Disposing(client));
        return (standIn, client.GetContainer(CosmosStandInFixture.Database, name));
    }

    private Task<TransactionalBatchResponse> ThreeItemsAsync(Container container) =>
        container.CreateTransactionalBatch(new PartitionKey("p"))
            .UpsertItemStream(Stream(new { id = "a", pk = "p" }))
            .UpsertItemStream(Stream(new { id = "b", pk = "p" }))
            .UpsertItemStream(Stream(new { id = "c", pk = "p" }))
            .ExecuteAsync(_cancellation);

    [Fact]
    public async Task A_batch_over_its_buckets_cap_is_429_with_sub_status_3212()
    {
        // Each bucket may spend 20 RU now and a trickle after; three items cost 15, so the second three do not fit.
        var (standIn, container) = await StartAsync(new StandInOptions { BucketRuPerSecond = 1, BurstSeconds = 20 }, bucket: 3);
        using var first = await ThreeItemsAsync(container);

        using var response = await ThreeItemsAsync(container);

        Assert.Equal(HttpStatusCode.TooManyRequests, response.StatusCode);
        Assert.Equal("3212", response.Headers["x-ms-substatus"]);
        Assert.True(response.RetryAfter > TimeSpan.FromSeconds(1), $"retry after {response.RetryAfter}");
        var stats = standIn.Stats.Snapshot();
        Assert.Equal((1L, 1L, 3L, 3L), (stats.ThrottledRequests, stats.BucketThrottledRequests, stats.ThrottledOperations, stats.BucketThrottledOperations));
    }

    [Fact]
    public async Task A_client_that_names_no_bucket_is_not_held_to_a_buckets_cap()
    {
        var (_, container) = await StartAsync(new StandInOptions { BucketRuPerSecond = 1, BurstSeconds = 20 }, bucket: null);
        using var first = await ThreeItemsAsync(container);

        using var response = await ThreeItemsAsync(container);

        Assert.Equal((HttpStatusCode.OK, HttpStatusCode.OK), (first.StatusCode, response.StatusCode));
    }

    [Fact]
    public async Task Over_the_budget_it_is_429_with_sub_status_3200_and_counted_apart_from_3212()
    {
        var (standIn, container) = await StartAsync(new StandInOptions { RuPerSecond = 1, BurstSeconds = 20, BucketRuPerSecond = 1000 }, bucket: 1);
        using var first = await ThreeItemsAsync(container);

        using var response = await ThreeItemsAsync(container);

        Assert.Equal(HttpStatusCode.TooManyRequests, response.StatusCode);
        Assert.Equal("3200", response.Headers["x-ms-substatus"]);
        var stats = standIn.Stats.Snapshot();
        Assert.Equal((1L, 0L), (stats.ThrottledRequests, stats.BucketThrottledRequests));
    }

    [Fact]
    public async Task In_bulk_the_items_over_the_buckets_cap_are_429_with_sub_status_3212_each()
    {
        var (standIn, container) = await StartAsync(new StandInOptions { BucketRuPerSecond = 1, BurstSeconds = 10 }, bucket: 4, bulk: true);

        var answers = await Task.WhenAll(new[] { "a", "b", "c" }.Select(async id =>
        {
            using var response = await container.UpsertItemStreamAsync(Stream(new { id, pk = "p" }), new PartitionKey("p"), cancellationToken: _cancellation);
            return (response.StatusCode, SubStatus: response.Headers["x-ms-substatus"]);
        }));

        Assert.Equal(2, answers.Count(answer => answer.StatusCode is HttpStatusCode.Created));
        Assert.Equal((HttpStatusCode.TooManyRequests, "3212"), Assert.Single(answers, answer => answer.StatusCode == HttpStatusCode.TooManyRequests));
        Assert.Equal(1L, standIn.Stats.Snapshot().BucketThrottledOperations);
    }

    [Fact]
    public async Task A_bucket_outside_one_to_five_is_refused_with_400()
    {
        var (_, container) = await StartAsync(new StandInOptions(), bucket: 6);

        using var response = await ThreeItemsAsync(container);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
    }

    private sealed class Disposing(IDisposable owned) : IAsyncDisposable
    {
        public ValueTask DisposeAsync()
        {
            owned.Dispose();
            return ValueTask.CompletedTask;
        }
    }
}
