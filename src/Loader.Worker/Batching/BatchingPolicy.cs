using Loader.Abstractions;

namespace Loader.Worker.Batching;

/// <summary>How rows are grouped into batches.</summary>
/// <param name="MaxOperations">Operations per batch.</param>
/// <param name="MaxPayloadBytes">Request payload per batch, as the adapter sizes entities.</param>
/// <param name="MaxBufferedRows">Rows allowed to wait in partial batches before the oldest leaves as it is.</param>
/// <param name="MaxBufferedBytes">
/// Memory the rows waiting in partial batches may hold (<see cref="EntityFootprint"/>) before the oldest leaves as it
/// is: the bound that lets many partition keys fill their batches while memory stays flat, whatever the rows' width.
/// </param>
/// <param name="Mode">The write mode, which decides what a repeated key means.</param>
/// <param name="MaxBatchDelay">
/// The longest a partial batch waits for more rows of its key before it leaves as it is (Kafka's <c>linger.ms</c>);
/// null: until the buffer is full or the input ends. Bounds how far the checkpoint's low watermark trails the
/// reader, since a rare key's batch would otherwise hold it back until the end of the input.
/// </param>
internal sealed record BatchingPolicy(int MaxOperations, long MaxPayloadBytes, int MaxBufferedRows, long MaxBufferedBytes, WriteMode Mode, TimeSpan? MaxBatchDelay = null);
