using System.Collections.Immutable;
using Loader.ThrottlingSimulator;

namespace Loader.CosmosStandIn;

/// <summary>The counters at one moment; served as camelCase JSON by <c>GET /_standin/stats</c>.</summary>
/// <param name="BatchRequests">Batch requests received (transactional and bulk).</param>
/// <param name="Operations">Operations in those requests.</param>
/// <param name="ThrottledRequests">Batch requests answered 429 as a whole (sub-status 3200 or 3212).</param>
/// <param name="ThrottledOperations">Operations answered 429: every operation of a request throttled whole, and the ones a bulk request could not afford.</param>
/// <param name="OperationsApplied">Operations that succeeded (written, replaced, patched, read, deleted).</param>
/// <param name="ItemsCreated">Operations answered 201 Created: items that did not exist before. With nothing else writing to a container, the items it holds.</param>
/// <param name="OperationsRefused">Operations answered with their own error (409, 412, 404, 413, 400), not counting 424 and 429.</param>
/// <param name="TransactionsFailed">Atomic batches that failed as a whole (one operation refused, the others 424), leaving nothing applied.</param>
/// <param name="RequestChargeTotal">Sum of the <c>x-ms-request-charge</c> values sent on data-plane answers (batches, point operations and item requests passed through).</param>
/// <param name="PassedThrough">Requests passed to cosmosdb-server untouched (and point reads, which go to it by key).</param>
public sealed record StandInStatsSnapshot(
    long BatchRequests,
    long Operations,
    long ThrottledRequests,
    long ThrottledOperations,
    long OperationsApplied,
    long ItemsCreated,
    long OperationsRefused,
    long TransactionsFailed,
    double RequestChargeTotal,
    long PassedThrough)
{
    /// <summary>Of <see cref="ThrottledRequests"/>, those refused by their throughput bucket's cap: sub-status 3212 rather than 3200.</summary>
    public long BucketThrottledRequests { get; init; }

    /// <summary>Of <see cref="ThrottledOperations"/>, those refused by their throughput bucket's cap (3212).</summary>
    public long BucketThrottledOperations { get; init; }

    /// <summary>Point writes (create, upsert, replace, delete, patch outside a batch) answered, 429s included.</summary>
    public long PointWrites { get; init; }

    /// <summary>Of <see cref="PointWrites"/>, those answered 429.</summary>
    public long ThrottledPointWrites { get; init; }

    /// <summary>The requests received by kind (see <see cref="RequestKind"/>), with the priority level and throughput bucket headers they carried.</summary>
    public ImmutableDictionary<string, RequestsSeen> Requests { get; init; } = ImmutableDictionary<string, RequestsSeen>.Empty;

    /// <summary>Items written with a <c>ttl</c>, by its value as JSON text (<c>"3600"</c>, <c>"-1"</c>); items written without one are not counted.</summary>
    public ImmutableDictionary<string, long> ItemTtls { get; init; } = ImmutableDictionary<string, long>.Empty;

    /// <summary>The requests of <paramref name="kind"/> seen; none when there were none.</summary>
    public RequestsSeen Seen(RequestKind kind) => Requests.GetValueOrDefault(kind.ToString(), RequestsSeen.None);
}

/// <summary>Requests of one kind, and the values of the headers that steer the service's throttling for them.</summary>
/// <param name="Count">Requests received.</param>
/// <param name="PriorityLevels">How many carried each <c>x-ms-cosmos-priority-level</c> value (<c>High</c>, <c>Low</c>).</param>
/// <param name="ThroughputBuckets">How many carried each <c>x-ms-cosmos-throughput-bucket</c> value (1 to 5).</param>
public sealed record RequestsSeen(long Count, ImmutableDictionary<string, long> PriorityLevels, ImmutableDictionary<string, long> ThroughputBuckets)
{
    public static RequestsSeen None { get; } = new(0, ImmutableDictionary<string, long>.Empty, ImmutableDictionary<string, long>.Empty);

    public RequestsSeen With(string? priorityLevel, string? throughputBucket) => new(
        Count + 1,
        priorityLevel is null ? PriorityLevels : PriorityLevels.SetItem(priorityLevel, PriorityLevels.GetValueOrDefault(priorityLevel) + 1),
        throughputBucket is null ? ThroughputBuckets : ThroughputBuckets.SetItem(throughputBucket, ThroughputBuckets.GetValueOrDefault(throughputBucket) + 1));
}

/// <summary>What the stand-in did.</summary>
public sealed class StandInStats() : ProxyCounters<StandInStatsSnapshot>(new(0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
{
    internal void Record(Func<StandInStatsSnapshot, StandInStatsSnapshot> change) => Update(change);

    /// <summary>Counts a request of <paramref name="kind"/> with the throttling headers it carried.</summary>
    internal void RecordRequest(RequestKind kind, string? priorityLevel, string? throughputBucket) => Update(s => s with
    {
        Requests = s.Requests.SetItem(kind.ToString(), s.Requests.GetValueOrDefault(kind.ToString(), RequestsSeen.None).With(priorityLevel, throughputBucket)),
    });

    /// <summary>Counts the <c>ttl</c> of items written.</summary>
    internal void RecordTtls(IEnumerable<string?> ttls)
    {
        var written = ttls.OfType<string>().ToList();
        if (written.Count > 0)
        {
            Update(s => s with { ItemTtls = written.Aggregate(s.ItemTtls, (counts, ttl) => counts.SetItem(ttl, counts.GetValueOrDefault(ttl) + 1)) });
        }
    }
}
