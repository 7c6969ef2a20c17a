using System.Globalization;
using CsvHelper;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>
/// A rejects file as a user's tools read it, parsed with CsvHelper: its header (the input's columns, then the
/// <c>loader_reject_*</c> columns) and each row by column name. The reserved names are spelled out here, not taken from
/// the loader, so a renamed column fails the tests that read the file.
/// </summary>
internal sealed class RejectsFile
{
    public static readonly string[] ReservedColumns =
        ["loader_reject_reason", "loader_reject_line", "loader_reject_file", "loader_reject_file_line", "loader_reject_record", "loader_reject_input_line"];

    private RejectsFile(IReadOnlyList<string> header, IReadOnlyList<RejectsFileRow> rows)
    {
        Header = header;
        Rows = rows;
    }

    public IReadOnlyList<string> Header { get; }

    /// <summary>The input's own columns: the header without the reserved ones.</summary>
    public IReadOnlyList<string> DataColumns => [.. Header.Take(Header.Count - ReservedColumns.Length)];

    public IReadOnlyList<RejectsFileRow> Rows { get; }

    public static RejectsFile Read(string path, char separator = ',')
    {
        Assert.True(File.Exists(path), $"no rejects file at {path}");
        return Parse(File.ReadAllText(path), separator);
    }

    public static RejectsFile Parse(string text, char separator = ',')
    {
        var options = new CsvReaderOptions
        {
            Separator = separator,
            HasHeader = true,
            DetectSeparatorHint = false,
            MalformedData = CsvMalformedDataHandling.Throw,
            FieldCountMismatch = CsvFieldCountHandling.Throw,
        };
        using var reader = CsvReader.FromText(text, options);
        var header = reader.Headers.ToList();
        Assert.Equal(ReservedColumns, header.TakeLast(ReservedColumns.Length));
        var rows = new List<RejectsFileRow>();
        while (reader.Read())
        {
            rows.Add(new RejectsFileRow(header, [.. Enumerable.Range(0, reader.FieldCount).Select(reader.GetString)]));
        }

        return new RejectsFile(header, rows);
    }
}

/// <summary>A row of a rejects file: its cells in the header's order, and the reserved ones by name.</summary>
internal sealed record RejectsFileRow(IReadOnlyList<string> Header, IReadOnlyList<string> Cells)
{
    public string this[string column] => Cells[IndexOf(column)];

    /// <summary>The record's fields in the input's own columns.</summary>
    public IReadOnlyList<string> Fields => [.. Cells.Take(Header.Count - RejectsFile.ReservedColumns.Length)];

    public string Reason => this["loader_reject_reason"];

    public long Line => long.Parse(this["loader_reject_line"], CultureInfo.InvariantCulture);

    public string File => this["loader_reject_file"];

    public long FileLine => long.Parse(this["loader_reject_file_line"], CultureInfo.InvariantCulture);

    /// <summary>The record's text when it could not be split into fields; empty otherwise.</summary>
    public string Record => this["loader_reject_record"];

    public long InputLine => long.Parse(this["loader_reject_input_line"], CultureInfo.InvariantCulture);

    private int IndexOf(string column)
    {
        for (var i = 0; i < Header.Count; i++)
        {
            if (Header[i] == column)
            {
                return i;
            }
        }

        throw new ArgumentException($"the rejects file has no column '{column}': {string.Join(", ", Header)}", nameof(column));
    }
}
