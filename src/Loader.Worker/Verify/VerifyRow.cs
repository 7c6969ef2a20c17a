using Loader.Abstractions;

namespace Loader.Worker.Verify;

/// <summary>A row of the input as <c>verify</c> keeps it: the entity as the load maps it, and where the row stands.</summary>
/// <param name="Entity">The row, mapped; its origin's line is the line as the load numbered it (what a rejects file lists).</param>
/// <param name="Sequence">Its place in everything verify reads, from 1: of two rows of a key, the later one's is higher.</param>
/// <param name="Rejected">The load's rejects file lists it: it is expected absent.</param>
/// <param name="Part">For an input of several parts, or a range shard: the part the row is in; null for an input of one.</param>
/// <param name="PartLine">The row's own line in <paramref name="Part"/>.</param>
internal sealed record VerifyRow(LoadEntity Entity, long Sequence, bool Rejected, string? Part = null, long PartLine = 0)
{
    /// <summary>Where the row is in its format's words when that is not a line (a Parquet row: <c>row group 2, row 17</c>); null for a line.</summary>
    public string? Place { get; init; }
}
