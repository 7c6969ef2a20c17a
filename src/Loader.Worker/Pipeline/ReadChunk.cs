using Loader.Abstractions;
using Loader.Worker.Batching;

namespace Loader.Worker.Pipeline;

/// <summary>
/// Rows the read stage hands on together, and how far it had read when it did: every record up to
/// <paramref name="Through"/> is in this chunk or an earlier one, or was settled by the read stage itself (rejected,
/// skipped, another shard's).
/// </summary>
/// <param name="Entities">The rows, in input order; the last chunk may have none.</param>
/// <param name="Measures">Each row's measure, in the same order (<see cref="RowMeasure"/>); null when the rows were not measured yet.</param>
/// <param name="Through">The last record the read stage had passed.</param>
/// <param name="Fingerprint">The input's fingerprint up to that record, when the load keeps one.</param>
internal sealed record ReadChunk(LoadEntity[] Entities, RowMeasure[]? Measures, RowOrigin Through, UInt128? Fingerprint);
