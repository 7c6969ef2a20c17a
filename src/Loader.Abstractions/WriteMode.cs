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
}
