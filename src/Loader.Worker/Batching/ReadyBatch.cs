using Loader.Abstractions;

namespace Loader.Worker.Batching;

/// <summary>A batch leaving the batcher, with what the pipeline tracks about it.</summary>
/// <param name="Batch">What the adapter writes.</param>
/// <param name="Sequence">Emission order, for logs and tests.</param>
/// <param name="FirstRecord">The lowest input record this batch stands for, superseded rows included: rows from it on are not done until the batch is.</param>
/// <param name="Superseded">For an entity that replaced an earlier row with the same keys, that earlier row: counted superseded once the entity lands, sent in its place if the service refuses the entity.</param>
internal sealed record ReadyBatch(EntityBatch Batch, long Sequence, long FirstRecord, IReadOnlyDictionary<LoadEntity, LoadEntity>? Superseded = null)
{
    /// <summary>The input records the batch stands for: its rows and the rows they superseded.</summary>
    public IEnumerable<long> Records =>
        Batch.Entities.Select(entity => entity.Origin.Record).Concat(Superseded?.Values.Select(earlier => earlier.Origin.Record) ?? []);
}
