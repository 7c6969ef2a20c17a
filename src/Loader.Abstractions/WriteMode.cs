namespace Loader.Abstractions;

/// <summary>How a row is applied to the store.</summary>
public enum WriteMode
{
    /// <summary>Insert, or replace an existing entity with the same keys entirely.</summary>
    Upsert,

    /// <summary>Insert, or merge the given properties onto an existing entity, keeping the properties the row does not carry.</summary>
    Merge,

    /// <summary>Insert only: an existing entity with the same keys is a conflict for that row.</summary>
    Insert,

    /// <summary>Update only: replace an existing entity entirely; a missing one is a reject (404, not found).</summary>
    Replace,

    /// <summary>Delete the entity with the row's keys (the other columns are ignored); a missing one is counted already absent.</summary>
    Delete,
}
