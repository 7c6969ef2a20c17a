using System.Globalization;
using CsvHelper;
using Loader.Abstractions;
using Loader.Worker.Configuration;

namespace Loader.Worker.Csv;

/// <summary>
/// Streams records from CSV with CsvHelper's reader: a header row, then one record at a time, so memory stays
/// flat whatever the file size. Malformed records (stray or unterminated quotes, a wrong number of fields)
/// come back as records with a problem and their raw text, in input order, instead of stopping the read.
/// </summary>
public sealed class CsvRecordReader : IDisposable
{
    private const int BufferSize = 256 * 1024;

    /// <summary>No entity may exceed 2 MB, so a longer record is a quote that never closes, not data.</summary>
    internal const int MaxRecordBytes = 16 * 1024 * 1024;

    private readonly CsvReader _reader;
    private readonly Queue<CsvRecord> _ready = new();
    private long _record;
    private bool _ended;

    private CsvRecordReader(CsvReader reader)
    {
        _reader = reader;
        Header = ReadHeader();
    }

    /// <summary>Column names from the first row.</summary>
    public IReadOnlyList<string> Header { get; }

    /// <summary>Records returned or skipped so far.</summary>
    public long RecordsRead => _record;

    /// <summary>
    /// Opens a stream as UTF-8 (a byte-order mark switches to UTF-16/32). Bytes that are not valid UTF-8 read
    /// as U+FFFD, which the mapper rejects, so one bad byte costs one row, not the load.
    /// </summary>
    public static CsvRecordReader Open(Stream stream, CsvOptions options)
    {
        CsvRecordReader? owner = null;
        var readerOptions = new CsvReaderOptions
        {
            Separator = Separator(options.Delimiter),
            HasHeader = true,
            Mode = CsvMode.Rfc4180,
            SkipEmptyLines = true,
            TrackLineNumbers = true,
            DetectSeparatorHint = false,
            MalformedData = CsvMalformedDataHandling.Skip,
            FieldCountMismatch = CsvFieldCountHandling.Skip,
            OnMalformedRecord = malformed => owner!.OnMalformed(malformed),
            MaxRecordSize = MaxRecordBytes,
            BufferSize = BufferSize,
        };
        var reader = CsvReader.Create(stream, readerOptions, leaveOpen: true);
        owner = new CsvRecordReader(reader);
        return owner;
    }

    /// <summary>The separator a <c>Loader:Csv:Delimiter</c> setting stands for: one ASCII character, <c>\t</c> or <c>tab</c> for tab.</summary>
    public static char Separator(string configured) => configured switch
    {
        "\\t" or "tab" or "TAB" or "\t" => '\t',
        { Length: 1 } single when single[0] < 128 => single[0],
        _ => throw new FormatException($"'{configured}' is not one ASCII character (use \\t for tab)."),
    };

    private IReadOnlyList<string> ReadHeader()
    {
        try
        {
            var header = _reader.Headers;
            if (header.Count == 0 || (header.Count == 1 && string.IsNullOrWhiteSpace(header[0])))
            {
                throw new CsvHeaderException("the input is empty: expected a header row naming the columns.");
            }

            return [.. header.Select(name => name.Trim())];
        }
        catch (CsvFormatException exception)
        {
            throw new CsvHeaderException($"the header row is malformed: {exception.Message}");
        }
    }

    /// <summary>Reads the next record; false at the end of the input.</summary>
    /// <exception cref="CsvFormatException">The input cannot be read on, such as a record longer than 16 MiB (a quote that never closes).</exception>
    public bool Read(out CsvRecord record)
    {
        while (_ready.Count == 0 && !_ended)
        {
            if (!_reader.Read())
            {
                _ended = true;
                break;
            }

            _ready.Enqueue(CurrentRecord());
        }

        if (_ready.TryDequeue(out var next))
        {
            record = next with { Origin = new RowOrigin(++_record, next.Origin.Line) };
            return true;
        }

        record = default;
        return false;
    }

    /// <summary>Skips records without mapping them (resuming after a checkpoint); returns how many were skipped.</summary>
    public long Skip(long records)
    {
        long skipped = 0;
        while (skipped < records && Read(out _))
        {
            skipped++;
        }

        return skipped;
    }

    private CsvRecord CurrentRecord()
    {
        var count = _reader.FieldCount;
        var fields = new string[count];
        for (var i = 0; i < count; i++)
        {
            fields[i] = _reader.GetString(i);
        }

        return new CsvRecord(fields, new RowOrigin(0, _reader.LineNumber));
    }

    /// <summary>Called by the reader, inside <see cref="CsvReader.Read"/>, before the next good record is returned.</summary>
    private void OnMalformed(CsvMalformedRecord malformed)
    {
        if (!malformed.Skipped)
        {
            return;
        }

        var problem = malformed.Reason switch
        {
            CsvMalformedReason.FieldCountMismatch => string.Create(CultureInfo.InvariantCulture,
                $"has {CountFields(malformed.RawRecord)} fields, the header has {Header.Count}"),
            CsvMalformedReason.StrayQuote => "malformed quoting: a quote inside an unquoted field",
            CsvMalformedReason.TextAfterClosingQuote => "malformed quoting: text after the closing quote of a field",
            CsvMalformedReason.UnterminatedQuote => "malformed quoting: a quoted field is never closed before the end of the input",
            CsvMalformedReason.LineBreakInQuotes => "malformed quoting: a line break inside a quoted field",
            _ => $"malformed record ({malformed.Reason})",
        };
        _ready.Enqueue(new CsvRecord([], new RowOrigin(0, malformed.LineNumber), problem, malformed.RawRecord));
    }

    /// <summary>Counts the fields of a raw record for the message (quotes honoured).</summary>
    private int CountFields(string raw)
    {
        var separator = _reader.Separator;
        var count = 1;
        var quoted = false;
        foreach (var c in raw)
        {
            if (c == '"')
            {
                quoted = !quoted;
            }
            else if (c == separator && !quoted)
            {
                count++;
            }
        }

        return count;
    }

    public void Dispose() => _reader.Dispose();
}
