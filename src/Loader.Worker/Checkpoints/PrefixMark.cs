namespace Loader.Worker.Checkpoints;

/// <summary>
/// A point of the input's fingerprint (<see cref="Records.RecordSequenceHash"/>) as a checkpoint records it: the hash of the
/// well-formed records up to <paramref name="Record"/>, which starts on <paramref name="Line"/>. A restart reading past
/// the record compares its own hash with <paramref name="Hash"/>.
/// </summary>
/// <param name="Record">The last record the hash covers.</param>
/// <param name="Line">The line on which that record starts (or the malformed line after it that the load passed last).</param>
/// <param name="Hash">The fingerprint of the records up to it, 32 hex digits.</param>
internal sealed record PrefixMark(long Record, long Line, string Hash);
