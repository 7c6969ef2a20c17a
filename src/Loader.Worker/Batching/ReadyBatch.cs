using Loader.Abstractions;

namespace Loader.Worker.Batching;

/// <summary>A batch leaving the batcher, with what the pipeline tracks about it.</summary>
/// <param name="Batch">What the adapter writes.</param>
/// <param name="Sequence">Emission order, for logs and tests.</param>
/// <param name="FirstRecord">The lowest input record this batch stands for, superseded rows included: rows from it on are not done until the batch is.</param>
public sealed record ReadyBatch(EntityBatch Batch, long Sequence, long FirstRecord);
