using Loader.Abstractions;

namespace Loader.Worker.Batching;

/// <summary>A batch leaving the batcher, with what the pipeline tracks about it.</summary>
/// <param name="Batch">What the adapter writes.</param>
/// <param name="Sequence">Emission order, for logs and tests.</param>
/// <param name="FirstRecord">The lowest input record this batch stands for, superseded rows included: rows from it on are not done until the batch is.</param>
/// <param name="Superseded">For an entity that replaced an earlier row with the same keys, that earlier row: counted superseded once the entity lands, sent in its place if the service refuses the entity.</param>
/// <param name="KnownRowRecords">The input records of the batch's entities, in their order, when its maker kept them; read from the entities when null.</param>
internal sealed record ReadyBatch(EntityBatch Batch, long Sequence, long FirstRecord, IReadOnlyDictionary<LoadEntity, LoadEntity>? Superseded = null, ReadOnlyMemory<long>? KnownRowRecords = null)
{
    /// <summary>The input records of the batch's entities, in their order.</summary>
    public ReadOnlyMemory<long> RowRecords => KnownRowRecords ?? Batch.Entities.Select(entity => entity.Origin.Record).ToArray();

    /// <summary>The input records of the rows the batch's entities superseded.</summary>
    public IEnumerable<long> SupersededRecords => Superseded?.Values.Select(earlier => earlier.Origin.Record) ?? [];

    /// <summary>The highest input record among <paramref name="records"/>; 0 when there are none.</summary>
    public static long Highest(ReadOnlySpan<long> records)
    {
        var highest = 0L;
        foreach (var record in records)
        {
            highest = Math.Max(highest, record);
        }

        return highest;
    }
}
