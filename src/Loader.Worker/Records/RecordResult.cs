namespace Loader.Worker.Records;

/// <summary>One record of the input in order: the mapped value of a well-formed record, or a malformed record.</summary>
internal readonly record struct RecordResult<T>(T? Value, MalformedRecord? Malformed);
