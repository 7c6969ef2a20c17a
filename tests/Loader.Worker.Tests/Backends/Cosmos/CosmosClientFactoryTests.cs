using Loader.Abstractions;
using Loader.CosmosStandIn;
using Loader.Worker.Backends.Cosmos;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Backends.Cosmos;

/// <summary>
/// The client the loader makes, through the real SDK against a stand-in of the test's own: the priority level and
/// throughput bucket of <c>Loader:Cosmos</c> reach the service on the writes of both modes, as the stand-in saw them.
/// </summary>
public sealed class CosmosClientFactoryTests(CosmosStandInFixture cosmos)
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;

    [Theory]
    [InlineData(nameof(CosmosWriteMethod.TransactionalBatch), nameof(RequestKind.TransactionalBatch))]
    [InlineData(nameof(CosmosWriteMethod.Bulk), nameof(RequestKind.Bulk))]
    public async Task The_priority_level_and_throughput_bucket_are_sent_on_every_write(string modeName, string kindName)
    {
        await using var own = await cosmos.StartOwnStandInAsync(_cancellation);
        await using var adapter = cosmos.CreateAdapter(CosmosStandInFixture.UniqueContainerName("prio"), Enum.Parse<CosmosWriteMethod>(modeName), own.StandIn, options =>
        {
            options.PriorityLevel = CosmosPriorityLevel.Low;
            options.ThroughputBucket = 3;
        });
        await adapter.PrepareAsync(_cancellation);

        var outcome = await adapter.WriteBatchAsync(new EntityBatch("p", [Entity(adapter, "a"), Entity(adapter, "b")], WriteMode.Upsert), _cancellation);

        Assert.Equal(BatchStatus.Written, outcome.Status);
        var seen = own.StandIn.Stats.Snapshot().Seen(Enum.Parse<RequestKind>(kindName));
        Assert.True(seen.Count > 0, $"no {kindName} request seen");
        Assert.Equal((seen.Count, seen.Count), (seen.PriorityLevels.GetValueOrDefault("Low"), seen.ThroughputBuckets.GetValueOrDefault("3")));
    }

    [Fact]
    public async Task Neither_is_sent_when_unset()
    {
        await using var own = await cosmos.StartOwnStandInAsync(_cancellation);
        await using var adapter = cosmos.CreateAdapter(CosmosStandInFixture.UniqueContainerName("prio"), standIn: own.StandIn);
        await adapter.PrepareAsync(_cancellation);

        await adapter.WriteBatchAsync(new EntityBatch("p", [Entity(adapter, "a")], WriteMode.Upsert), _cancellation);

        var seen = own.StandIn.Stats.Snapshot().Seen(RequestKind.TransactionalBatch);
        Assert.Equal(1, seen.Count);
        Assert.Empty(seen.PriorityLevels);
        Assert.Empty(seen.ThroughputBuckets);
    }

    private static LoadEntity Entity(CosmosAdapter adapter, string id)
    {
        EntityProperty[] properties = [EntityProperty.FromString("carrier", "AA")];
        var inspection = adapter.Inspect("p", id, properties);
        return new LoadEntity("p", id, properties, new RowOrigin(1, 2), inspection.PayloadBytes);
    }
}
