namespace Loader.CosmosStandIn;

/// <summary>What a request to the stand-in is, as counted in <see cref="StandInStatsSnapshot.Requests"/>.</summary>
public enum RequestKind
{
    /// <summary>An atomic batch (<c>x-ms-cosmos-batch-atomic: True</c>).</summary>
    TransactionalBatch,

    /// <summary>A non-atomic batch, what the SDK's bulk execution sends.</summary>
    Bulk,

    /// <summary>A read of one item by id.</summary>
    PointRead,

    /// <summary>A create, upsert, replace, delete or patch of one item outside a batch.</summary>
    PointWrite,

    /// <summary>A query or read feed of a container's items.</summary>
    Query,

    /// <summary>Everything else: the account, databases, containers, partition key ranges, query plans.</summary>
    Metadata,
}
