using Loader.Abstractions;

namespace Loader.Worker.Records;

/// <summary>
/// Reads the records of an input, whatever its format, in input order: the read stage, the resume, verify, the readiness
/// check and the estimate read through it. Record numbers (<see cref="RowOrigin.Record"/>) count well-formed records and
/// are the checkpoint's unit; lines are the format's own place of a record (a CSV or JSON Lines line).
/// </summary>
internal interface IRecordReader : IDisposable
{
    /// <summary>The column names the key templates and <c>Loader:Columns</c> are checked against at start: a CSV header, the paths of the first JSON object.</summary>
    IReadOnlyList<string> Columns { get; }

    /// <summary>The encoding of the input as the mapper names it in a reject (text not valid in it reaches the mapper as bytes that are not UTF-8).</summary>
    string TextEncoding { get; }

    /// <summary>Lines (or the format's units) of the input read so far, blank ones included: all of them once the records are read.</summary>
    long LinesRead { get; }

    /// <summary>Malformed records passed over by <see cref="Skip"/>.</summary>
    long MalformedSkipped { get; }

    /// <summary>The line on which the last record passed over by <see cref="Skip"/> starts (0 when none was).</summary>
    long LastSkippedLine { get; }

    /// <summary>
    /// Skips well-formed records without mapping them (resuming after a checkpoint), folding each into
    /// <paramref name="fingerprint"/> when given; returns how many were skipped.
    /// </summary>
    long Skip(long records, RecordSequenceHash? fingerprint = null);

    /// <summary>
    /// Reads every remaining record in input order: well-formed ones mapped by <paramref name="map"/> on
    /// <paramref name="parallelism"/> threads, malformed ones with their text. Stop enumerating to stop reading.
    /// </summary>
    /// <exception cref="IOException">The input failed part way: thrown once every whole record before the failure was given out.</exception>
    /// <exception cref="InvalidDataException">The input cannot be read on (its format's own limits).</exception>
    IEnumerable<RecordResult<T>> ReadAll<T>(IRecordMapper<T> map, int parallelism);

    /// <summary>How messages and rejects name where a record is: <c>line 12</c>.</summary>
    string Describe(RowOrigin origin);
}
