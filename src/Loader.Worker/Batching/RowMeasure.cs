using Loader.Abstractions;

namespace Loader.Worker.Batching;

/// <summary>
/// What the batcher reads of a row besides the row: its footprint and the hashes of its keys. Measured on the mapping
/// thread that made the row, while its strings are still in that core's cache; the batch stage's single thread would
/// otherwise read every string of every row again, from another core's cache.
/// </summary>
/// <param name="FootprintBytes">The memory the row holds while it waits (<see cref="EntityFootprint"/>).</param>
/// <param name="PartitionKeyHash">The partition key's hash (<see cref="KeyHash"/>).</param>
/// <param name="RowKeyHash">The row key's hash (<see cref="KeyHash"/>).</param>
internal readonly record struct RowMeasure(long FootprintBytes, int PartitionKeyHash, int RowKeyHash)
{
    public static RowMeasure Of(LoadEntity entity) => new(EntityFootprint.Of(entity), KeyHash(entity.PartitionKey), KeyHash(entity.RowKey));

    /// <summary>A key's hash, seeded per process (as <see cref="string.GetHashCode()"/> is): keys made to collide cannot slow the batcher down.</summary>
    public static int KeyHash(string key) => string.GetHashCode(key, StringComparison.Ordinal);
}
