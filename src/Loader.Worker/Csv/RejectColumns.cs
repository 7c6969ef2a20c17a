namespace Loader.Worker.Csv;

/// <summary>
/// The columns the rejects file adds after the input's own, whose names the loader reserves: an input that has them (a
/// rejects file read back to load its fixed rows) has them left out of the mapping, never written, typed or keyed. The
/// <c>loader_reject_</c> prefix keeps them apart from any column a user's data would have.
/// </summary>
internal static class RejectColumns
{
    /// <summary>Why the row was rejected.</summary>
    public const string Reason = "loader_reject_reason";

    /// <summary>The row's line in the input it was first read from (through every file of an input of several).</summary>
    public const string Line = "loader_reject_line";

    /// <summary>The file (or blob) the row was first read from.</summary>
    public const string File = "loader_reject_file";

    /// <summary>The row's line in that file.</summary>
    public const string FileLine = "loader_reject_file_line";

    /// <summary>The record's text, when it could not be split into the input's columns (which are then empty).</summary>
    public const string Record = "loader_reject_record";

    /// <summary>The row's line in the input of the load that wrote the file: a resumed load keeps the earlier run's rejects by it.</summary>
    public const string InputLine = "loader_reject_input_line";

    /// <summary>
    /// Where the row was first read, in the words of its format when they are not a line (a Parquet row: <c>row group 2,
    /// row 17</c>): only a JSON Lines rejects file of a Parquet input has it.
    /// </summary>
    public const string Place = "loader_reject_place";

    /// <summary>Every reserved column, in the order the rejects file writes them after the input's own.</summary>
    public static IReadOnlyList<string> All { get; } = [Reason, Line, File, FileLine, Record, InputLine];

    public static bool IsReserved(string column) => column == Place || All.Contains(column, StringComparer.Ordinal);

    /// <summary>Where <paramref name="column"/> is in <paramref name="header"/>, or -1 when it is not there.</summary>
    public static int PositionIn(IReadOnlyList<string> header, string column)
    {
        for (var i = 0; i < header.Count; i++)
        {
            if (header[i] == column)
            {
                return i;
            }
        }

        return -1;
    }
}
