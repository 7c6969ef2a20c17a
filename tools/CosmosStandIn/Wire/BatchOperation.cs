namespace Loader.CosmosStandIn.Wire;

/// <summary>What a batch operation does, by the protocol's numbers (the service's operation types).</summary>
public enum BatchOperationType
{
    Create = 0,
    Patch = 1,
    Read = 2,
    Delete = 4,
    Replace = 5,
    Upsert = 20,
}

/// <summary>One operation of a batch request, as the SDK encoded it.</summary>
/// <param name="Index">Position in the request; results come back in the same order.</param>
/// <param name="Type">What to do.</param>
/// <param name="Id">The item id (reads, deletes, replaces); writes carry it in their body.</param>
/// <param name="PartitionKeyJson">The operation's own partition key as JSON (<c>["LAX"]</c>): set in bulk requests, where operations of several keys share a request; a transactional batch names its key once, in a header.</param>
/// <param name="Body">The item's JSON (creates, upserts, replaces).</param>
/// <param name="IfMatch">Apply only if the stored item has this ETag.</param>
/// <param name="IfNoneMatch">Apply only if the stored item does not have this ETag.</param>
/// <param name="MinimalReturn">The client does not want the item back in the result.</param>
public sealed record BatchOperation(
    int Index,
    BatchOperationType Type,
    string? Id,
    string? PartitionKeyJson,
    ReadOnlyMemory<byte> Body,
    string? IfMatch,
    string? IfNoneMatch,
    bool MinimalReturn);
