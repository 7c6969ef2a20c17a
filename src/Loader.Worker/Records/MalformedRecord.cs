using Loader.Abstractions;

namespace Loader.Worker.Records;

/// <summary>A record the reader could not split into the header's fields, with its text as it stood in the input.</summary>
internal sealed record MalformedRecord(RowOrigin Origin, string Problem, string RawText);
