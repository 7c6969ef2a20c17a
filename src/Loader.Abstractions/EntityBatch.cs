namespace Loader.Abstractions;

/// <summary>
/// Entities of one partition key written as one atomic transaction. Keys are unique within a batch and the
/// batch respects the adapter's <see cref="BackendLimits"/>.
/// </summary>
public sealed record EntityBatch(string PartitionKey, IReadOnlyList<LoadEntity> Entities, WriteMode Mode)
{
    /// <summary>Sum of the entities' <see cref="LoadEntity.PayloadBytes"/>.</summary>
    public long PayloadBytes
    {
        get
        {
            long total = 0;
            foreach (var entity in Entities)
            {
                total += entity.PayloadBytes;
            }

            return total;
        }
    }
}
