using System.Globalization;
using CsvHelper;
using Loader.Worker.Csv;

namespace Loader.Worker.Rejects;

/// <summary>
/// A rejects file in CSV, in the input's columns and delimiter (<see cref="RejectRows"/>); when resuming, the earlier run's
/// rows read on lines up to the resume point are kept, in this file's columns.
/// </summary>
internal sealed class CsvRejectWriter : IRejectWriter
{
    private readonly CsvWriter _writer;

    public CsvRejectWriter(string path, RejectRows rows, long? keepUpToLine)
    {
        var kept = keepUpToLine is { } line && File.Exists(path) ? EarlierRejects(path, rows, line) : [];

        // Rejects are evidence, and loaded again once fixed: written as they were, no formula escaping.
        _writer = CsvWriter.ToFile(path, CsvWriterOptions.Default with { Injection = CsvInjection.None, NewLine = "\n", Separator = rows.Separator });
        _writer.WriteHeader([.. rows.Header]);
        foreach (var reject in kept)
        {
            _writer.WriteRecord(reject);
        }
    }

    public void Write(RejectRow row) => _writer.WriteRecord(row.Fields);

    public void Flush() => _writer.Flush();

    public void Dispose() => _writer.Dispose();

    /// <summary>The rows of an earlier run's rejects file read on lines of the input up to <paramref name="line"/>, in this file's columns.</summary>
    private static List<string[]> EarlierRejects(string path, RejectRows rows, long line)
    {
        var kept = new List<string[]>();
        using var reader = CsvReader.FromFile(path, CsvReaderOptions.Default with { Separator = rows.Separator, HasHeader = true, DetectSeparatorHint = false });
        var header = reader.Headers;
        var inputLine = PositionIn(header, RejectColumns.InputLine);
        var columns = rows.Header.Select(name => PositionIn(header, name)).ToArray();
        while (inputLine >= 0 && reader.Read())
        {
            if (long.TryParse(reader.GetString(inputLine), NumberStyles.None, CultureInfo.InvariantCulture, out var rejectLine) && rejectLine <= line)
            {
                kept.Add([.. columns.Select(column => column >= 0 && column < reader.FieldCount ? reader.GetString(column) : "")]);
            }
        }

        return kept;
    }

    /// <summary>
    /// Where a column is in an earlier run's file; one written before the rejects file had the input's columns
    /// (<c>line,reason,record[,file,fileLine]</c>) has its reserved columns by their old names, so its rows are kept as their text.
    /// </summary>
    private static int PositionIn(IReadOnlyList<string> header, string column) =>
        RejectColumns.PositionIn(header, column) is var position and >= 0 ? position
        : s_earlierNames.TryGetValue(column, out var earlier) ? RejectColumns.PositionIn(header, earlier)
        : -1;

    private static readonly Dictionary<string, string> s_earlierNames = new(StringComparer.Ordinal)
    {
        [RejectColumns.Reason] = "reason",
        [RejectColumns.Line] = "line",
        [RejectColumns.File] = "file",
        [RejectColumns.FileLine] = "fileLine",
        [RejectColumns.Record] = "record",
        [RejectColumns.InputLine] = "line",
    };
}
