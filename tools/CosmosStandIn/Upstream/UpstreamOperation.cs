using Loader.CosmosStandIn.Partitioning;

namespace Loader.CosmosStandIn.Upstream;

/// <summary>One operation of cosmosdb-server's JSON batch: what to do, to which item of which logical partition.</summary>
/// <param name="Type">Create, Upsert, Replace, Read or Delete.</param>
/// <param name="Key">The item's partition key value.</param>
/// <param name="Id">The item id.</param>
/// <param name="Body">The item's JSON, for writes.</param>
/// <param name="IfMatch">Apply only over this ETag.</param>
public sealed record UpstreamOperation(string Type, PartitionKeyValue Key, string Id, ReadOnlyMemory<byte> Body = default, string? IfMatch = null);

/// <summary>cosmosdb-server's answer to one operation: its status and, when it has one, the item and its ETag.</summary>
public sealed record UpstreamResult(int StatusCode, string? ETag, ReadOnlyMemory<byte> Body)
{
    public bool IsSuccess => StatusCode is >= 200 and <= 299;
}
