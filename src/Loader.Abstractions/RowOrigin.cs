namespace Loader.Abstractions;

/// <summary>Where a row came from in the input.</summary>
/// <param name="Record">1-based ordinal of the data record (header excluded); the unit of checkpoints.</param>
/// <param name="Line">1-based physical line on which the record starts; what messages name.</param>
public readonly record struct RowOrigin(long Record, long Line);
