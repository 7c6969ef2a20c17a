using System.Text.RegularExpressions;

namespace Loader.Worker.Reporting;

/// <summary>
/// Rejected rows grouped by the kind of reason, each with its count and its first few rows, for the report: one
/// group for "column 'n': '…' is not a valid Int32", not one per value. A reason's own values (quoted text that is
/// not a column's name, line and field numbers) are masked to find its group. Thread-safe; bounded in memory.
/// </summary>
internal sealed partial class RejectReasons
{
    /// <summary>Rows kept as examples per reason.</summary>
    public const int ExamplesPerReason = 3;

    /// <summary>Distinct reasons kept; later ones count in one "other reasons" group.</summary>
    public const int MaxReasons = 50;

    /// <summary>Characters of a rejected record kept as an example.</summary>
    public const int MaxRecordChars = 300;

    private const string OtherReasons = "(other reasons)";

    private readonly Dictionary<string, Group> _groups = new(StringComparer.Ordinal);

    /// <summary>
    /// Counts one rejected row: <paramref name="line"/> is where it was first read (<paramref name="place"/> in its format's
    /// words), <paramref name="inputLine"/> its line in this load's input when that is another (a rejects file read back).
    /// </summary>
    public void Add(long line, string place, string reason, string recordText, long? inputLine = null)
    {
        var kind = KindOf(reason);
        lock (_groups)
        {
            if (!_groups.TryGetValue(kind, out var group))
            {
                if (_groups.Count >= MaxReasons)
                {
                    kind = OtherReasons;
                }

                if (!_groups.TryGetValue(kind, out group))
                {
                    group = _groups[kind] = new Group();
                }
            }

            group.Rows++;
            if (group.Examples.Count < ExamplesPerReason)
            {
                var record = recordText.TrimEnd('\r', '\n');
                group.Examples.Add(new RejectExample(line, place, reason, record.Length <= MaxRecordChars ? record : record[..MaxRecordChars] + "…", inputLine == line ? null : inputLine));
            }
        }
    }

    /// <summary>Every reason with its rows and examples, most rows first.</summary>
    public IReadOnlyList<RejectReason> Summary()
    {
        lock (_groups)
        {
            return [.. _groups
                .OrderByDescending(group => group.Value.Rows)
                .ThenBy(group => group.Key, StringComparer.Ordinal)
                .Select(group => new RejectReason(group.Key, group.Value.Rows, [.. group.Value.Examples]))];
        }
    }

    /// <summary>The reason with the row's own values masked: what rows rejected for the same cause share.</summary>
    public static string KindOf(string reason)
    {
        var masked = QuotedValue().Replace(reason, match => match.Groups["column"].Success ? match.Value : "'…'");
        return Numbers().Replace(masked, match => match.Groups["word"].Value + " …");
    }

    // A quoted value, unless it follows "column" (the column's name is the cause, not the row's value).
    [GeneratedRegex(@"(?<column>(?<=\bcolumn ))?'[^']*'")]
    private static partial Regex QuotedValue();

    // "row group 2, row 17" names a Parquet row as "line 12" names a CSV one.
    [GeneratedRegex(@"\b(?<word>line|lines|has|record|group|row) \d+\b")]
    private static partial Regex Numbers();

    private sealed class Group
    {
        public long Rows { get; set; }

        public List<RejectExample> Examples { get; } = [];
    }
}

/// <summary>A kind of reject: its reason with the values masked, how many rows, and the first few of them.</summary>
internal sealed record RejectReason(string Reason, long Rows, IReadOnlyList<RejectExample> Examples);

/// <summary>One rejected row: its line, its own reason, and its record as it stood in the input (shortened).</summary>
/// <param name="Line">The line the row was first read on: in a rejects file read back, the line it came from (a Parquet row's number through the input).</param>
/// <param name="Place">Where it was first read in its format's words: <c>line 12</c>, or <c>row group 2, row 17</c> (and its file, of several).</param>
/// <param name="Reason">Why it was rejected.</param>
/// <param name="Record">The record as it stood in this load's input.</param>
/// <param name="InputLine">Its line in this load's input when that is another (a rejects file read back); else null.</param>
internal sealed record RejectExample(long Line, string Place, string Reason, string Record, long? InputLine = null);
