using Loader.Worker.Inputs;

namespace Loader.Worker.Records;

/// <summary>One input format: how its records are read, and where a part of it can be cut for range shards.</summary>
internal interface IRecordFormat
{
    InputFormat Format { get; }

    /// <summary>
    /// Opens <paramref name="source"/> and reads up to its first record (a CSV header, the first JSON object), part by part
    /// where the format cannot read its parts as one stream; the reader owns what it opened.
    /// </summary>
    /// <exception cref="InputHeaderException">The columns cannot be found (an empty input, a malformed header).</exception>
    /// <exception cref="IOException">The input failed before its first record.</exception>
    IRecordReader Open(InputSource source, int bufferSize);

    /// <summary>
    /// Where <paramref name="part"/> can be cut, read once: for each target byte offset (ascending) the first record start at
    /// or after it. Null when the part cannot be cut.
    /// </summary>
    RecordCuts? FindCuts(InputPart part, int bufferSize, IReadOnlyList<long> targets, CancellationToken cancellationToken);
}
