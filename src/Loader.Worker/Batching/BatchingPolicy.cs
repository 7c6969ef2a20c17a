using Loader.Abstractions;

namespace Loader.Worker.Batching;

/// <summary>How rows are grouped: operations and payload per batch, rows allowed to wait in partial batches, and the write mode that decides what a repeated key means.</summary>
public sealed record BatchingPolicy(int MaxOperations, long MaxPayloadBytes, int MaxBufferedRows, WriteMode Mode);
