using System.Globalization;
using Loader.Abstractions;
using Loader.Worker.Inputs;

namespace Loader.Worker.Checkpoints;

/// <summary>
/// Says where an input differs from the one a checkpoint settled records of: between the last fingerprint mark a restart
/// passed and the first it did not, in the input's lines (and parts, for an input of several), with the parts rewritten
/// since the checkpoint was written, which are where to look first.
/// </summary>
/// <param name="checkpointPath">The checkpoint, as messages name it.</param>
/// <param name="source">The input: its name and where its lines come from.</param>
/// <param name="rewritten">The parts with a new ETag or write time since the checkpoint, as named for a reader.</param>
/// <param name="rowPlace">How the input's format names a row when that is not a line (Parquet's row group and row); null for lines.</param>
internal sealed class PrefixMismatch(string checkpointPath, InputSource source, IReadOnlyList<string> rewritten, Func<RowOrigin, string>? rowPlace = null)
{
    /// <summary>The message for the mark <paramref name="failed"/> not passed after <paramref name="passed"/>, or for an input that ended after <paramref name="recordsRead"/> records before it.</summary>
    public string Describe(PrefixMark? passed, PrefixMark failed, long? recordsRead)
    {
        var where = recordsRead is { } read
            ? string.Create(CultureInfo.InvariantCulture, $"it now ends after {read:N0} records, before record {failed.Record:N0}, which the checkpoint had read")
            : string.Create(CultureInfo.InvariantCulture, $"records {(passed?.Record ?? 0) + 1:N0} to {failed.Record:N0} ({Lines(passed?.Line, failed.Line)}) are not the ones it settled");
        var look = rewritten.Count == 0 ? "" : $"; rewritten since: {string.Join(", ", rewritten)}";
        return $"Loader:Input '{source.Display}' has changed since the checkpoint at '{checkpointPath}' was written: {where}{look}. " +
            "A restart skips the records the checkpoint settled, so it would leave what the input said before in the target. "
            + "Restore the input, or delete the checkpoint (or give another Loader:CheckpointPath) to load it from the top.";
    }

    /// <summary>The lines after <paramref name="after"/> up to <paramref name="to"/>, in their part when the input has several.</summary>
    private string Lines(long? after, long to)
    {
        if (rowPlace is not null)
        {
            // Rows have no header before them: the first is row 1.
            var first = (after ?? 0) + 1;
            return $"{rowPlace(new RowOrigin(first, first))} to {rowPlace(new RowOrigin(to, to))}";
        }

        var from = (after ?? 1) + 1;
        if (!source.Lines.HasSeveralParts || source.Lines.Locate(from) is not { } start || source.Lines.Locate(to) is not { } end)
        {
            return string.Create(CultureInfo.InvariantCulture, $"lines {from:N0} to {to:N0} of '{source.Parts[0].Name}'");
        }

        return start.Part == end.Part
            ? string.Create(CultureInfo.InvariantCulture, $"lines {start.Line:N0} to {end.Line:N0} of '{start.Part}'")
            : string.Create(CultureInfo.InvariantCulture, $"from line {start.Line:N0} of '{start.Part}' to line {end.Line:N0} of '{end.Part}'");
    }
}
