using System.Globalization;
using CsvHelper;
using Loader.Abstractions;
using Loader.Worker.Csv;
using Loader.Worker.Inputs;

namespace Loader.Worker.Rejects;

/// <summary>
/// How a rejected record becomes a row of the rejects file, so the file can be fixed in a spreadsheet and loaded again:
/// the input's own columns with the record's fields as read, then the columns the loader reserves
/// (<see cref="RejectColumns"/>): the reason, where the row was first read (line, file, line in that file), the record's
/// text when it could not be split into fields, and its line in this load's input. When the input is itself a rejects
/// file, a row rejected again keeps the line and file it was first read from, and the text it was kept as.
/// </summary>
internal sealed class RejectRows : IRejectLayout
{
    private readonly int[] _dataColumns;
    private readonly int _fieldCount;
    private readonly InputLineMap? _parts;
    private readonly string _inputName;
    private readonly CsvReaderOptions _splitOptions;

    // Where a rejects file read back as input holds what a row carries on: -1 for a column it does not have.
    private readonly int _carriedLine;
    private readonly int _carriedFile;
    private readonly int _carriedFileLine;
    private readonly int _carriedRecord;

    /// <param name="inputHeader">The input's header as read.</param>
    /// <param name="separator">The input's field separator, which the rejects file is written with too.</param>
    /// <param name="lines">Where each line of the input comes from, for an input of several files.</param>
    /// <param name="inputName">How the input is named (a path, or a URL without its signature), for an input of one file.</param>
    public RejectRows(IReadOnlyList<string> inputHeader, char separator, InputLineMap lines, string inputName)
    {
        _dataColumns = [.. Enumerable.Range(0, inputHeader.Count).Where(i => !RejectColumns.IsReserved(inputHeader[i]))];
        _fieldCount = inputHeader.Count;
        Header = [.. _dataColumns.Select(i => inputHeader[i]), .. RejectColumns.All];
        Separator = separator;
        _parts = lines.HasSeveralParts ? lines : null;
        _inputName = inputName;
        _carriedLine = RejectColumns.PositionIn(inputHeader, RejectColumns.Line);
        _carriedFile = RejectColumns.PositionIn(inputHeader, RejectColumns.File);
        _carriedFileLine = RejectColumns.PositionIn(inputHeader, RejectColumns.FileLine);
        _carriedRecord = RejectColumns.PositionIn(inputHeader, RejectColumns.Record);
        _splitOptions = new CsvReaderOptions
        {
            Separator = separator,
            HasHeader = false,
            Mode = CsvMode.Rfc4180,
            DetectSeparatorHint = false,
            MalformedData = CsvMalformedDataHandling.Throw,
            FieldCountMismatch = CsvFieldCountHandling.Throw,
            BufferSize = 4096,
        };
    }

    /// <summary>Rows of an input whose header is not known: each record is kept as its text.</summary>
    public static RejectRows Unknown { get; } = new([], ',', new InputLineMap(), "");

    /// <summary>The rejects file's header: the input's own columns, then the reserved ones.</summary>
    public IReadOnlyList<string> Header { get; }

    /// <summary>The field separator the file is written with: the input's.</summary>
    public char Separator { get; }

    public string ContentType => "text/csv";

    public IRejectWriter Create(string path, long? keepUpToLine) => new CsvRejectWriter(path, this, keepUpToLine);

    public string Describe(RowOrigin origin) => RejectRow.LineOf(origin.Line);

    public RejectRow Row(RowOrigin origin, string reason, string recordText, bool split)
    {
        var row = new string[Header.Count];
        var fields = split ? Split(recordText) : null;
        var (line, file, fileLine) = Locate(origin.Line);
        string record;
        if (fields is null)
        {
            Array.Fill(row, "", 0, _dataColumns.Length);
            record = recordText;
        }
        else
        {
            for (var i = 0; i < _dataColumns.Length; i++)
            {
                row[i] = fields[_dataColumns[i]];
            }

            if (Carried(fields, _carriedLine) is { } first && long.TryParse(first, NumberStyles.None, CultureInfo.InvariantCulture, out var firstLine) && firstLine > 0)
            {
                (line, file, fileLine) = (firstLine, Carried(fields, _carriedFile) ?? "", Carried(fields, _carriedFileLine) ?? "");
            }

            record = Carried(fields, _carriedRecord) ?? "";
        }

        string[] reserved = [reason, line.ToString(CultureInfo.InvariantCulture), file, fileLine, record, origin.Line.ToString(CultureInfo.InvariantCulture)];
        reserved.CopyTo(row, _dataColumns.Length);
        return new RejectRow(row, line, RejectRow.LineOf(line));
    }

    /// <summary>The record's fields, or null when it is not one record of the input's number of fields.</summary>
    private string[]? Split(string recordText)
    {
        if (_fieldCount == 0)
        {
            return null;
        }

        try
        {
            using var reader = CsvReader.FromText(recordText, _splitOptions);
            if (!reader.Read() || reader.FieldCount != _fieldCount)
            {
                return null;
            }

            var fields = new string[_fieldCount];
            for (var i = 0; i < fields.Length; i++)
            {
                fields[i] = reader.GetString(i);
            }

            return reader.Read() ? null : fields;
        }
        catch (CsvFormatException)
        {
            return null;
        }
    }

    private (long Line, string File, string FileLine) Locate(long line) =>
        _parts?.Locate(line) is { } located
            ? (line, located.Part, located.Line.ToString(CultureInfo.InvariantCulture))
            : (line, _inputName, line.ToString(CultureInfo.InvariantCulture));

    private static string? Carried(string[] fields, int column) => column >= 0 && fields[column].Length > 0 ? fields[column] : null;
}

/// <summary>A row of the rejects file, and the line it names as the row's (where it was first read).</summary>
/// <param name="Fields">The row's fields as the file writes them.</param>
/// <param name="Line">The line (for Parquet, the row's number through the input) it was first read on.</param>
/// <param name="Place">How messages name where it was first read: <c>line 12</c>, or <c>row group 2, row 17</c>.</param>
internal sealed record RejectRow(string[] Fields, long Line, string Place)
{
    public static string LineOf(long line) => string.Create(CultureInfo.InvariantCulture, $"line {line}");
}
