using Loader.Abstractions;

namespace Loader.Worker.Csv;

/// <summary>One record of the input: its fields, where it came from and, when it is malformed, why.</summary>
/// <param name="Fields">The fields as read; empty strings for empty cells.</param>
/// <param name="Origin">Record ordinal and starting line.</param>
/// <param name="Problem">Why the record cannot be used (wrong field count, a stray quote), or null.</param>
/// <param name="RawText">The record's text as it stood in the input, kept only for malformed records.</param>
public readonly record struct CsvRecord(string[] Fields, RowOrigin Origin, string? Problem = null, string? RawText = null);
