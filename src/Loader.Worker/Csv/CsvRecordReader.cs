using System.Collections.Concurrent;
using System.Globalization;
using CsvHelper;
using Loader.Abstractions;
using Loader.Worker.Inputs;
using Loader.Worker.Records;

namespace Loader.Worker.Csv;

/// <summary>
/// Streams records from CSV with CsvHelper: a header row, then the records, so memory stays flat whatever the
/// file size. Well-formed records are mapped on several threads by CsvHelper's parallel enumeration (the
/// selector reads fields in place, as UTF-8 spans) and come back in input order. Malformed records (stray or
/// unterminated quotes, a wrong number of fields) come back in order too, with their text, instead of stopping
/// the read. Record numbers (<see cref="RowOrigin.Record"/>) count well-formed records; lines count every line.
/// </summary>
internal sealed class CsvRecordReader : IRecordReader
{
    private const int BufferSize = 256 * 1024;

    private readonly CsvReader _reader;
    private readonly RunawayQuoteGuard _guard;
    private readonly Utf16Input _text;

    // The stream this reader was opened on when it owns it (opened by CsvFormat).
    private Stream? _owned;

    // Filled by the scanning thread, ahead of the mapped results; released in order by ReadAll.
    private readonly ConcurrentQueue<(long GoodRecordsBefore, MalformedRecord Record)> _malformed = new();

    // Set while the header is read: a malformed first record is the header's problem, not a row's.
    private bool _readingHeader = true;
    private string? _headerProblem;

    private CsvRecordReader(CsvReader reader, RunawayQuoteGuard guard, Utf16Input text)
    {
        _reader = reader;
        _guard = guard;
        _text = text;
    }

    /// <summary>The encoding of the input as the mapper names it in a reject: <c>UTF-16</c> (a byte-order mark said so) or <c>UTF-8</c>.</summary>
    public string TextEncoding => _text.IsUtf16 ? "UTF-16" : "UTF-8";

    /// <summary>Lines of the input read so far, header and blank lines included: all of them once the records are read.</summary>
    public long LinesRead => _guard.LinesRead;

    /// <summary>Column names from the first row.</summary>
    public IReadOnlyList<string> Header { get; private set; } = [];

    public IReadOnlyList<string> Columns => Header;

    /// <summary>Malformed records passed over by <see cref="Skip"/>.</summary>
    public long MalformedSkipped { get; private set; }

    /// <summary>The line on which the last record passed over by <see cref="Skip"/> starts (0 when none was).</summary>
    public long LastSkippedLine { get; private set; }

    /// <summary>
    /// Opens a stream as UTF-8 (a byte-order mark switches to UTF-16/32). Bytes that are not valid UTF-8, and unpaired
    /// surrogates in UTF-16 (<see cref="Utf16Input"/>), are kept as bytes that are not UTF-8; the mapper rejects the
    /// record, so one bad byte costs one row, not the load.
    /// </summary>
    public static CsvRecordReader Open(Stream stream, CsvOptions options) => Open(stream, options, boundaries: null);

    /// <summary>As <see cref="Open(Stream, CsvOptions)"/>, the reader disposing <paramref name="stream"/> with itself (and at once when the header fails).</summary>
    internal static CsvRecordReader OpenOwned(Stream stream, CsvOptions options)
    {
        try
        {
            var reader = Open(stream, options, boundaries: null);
            reader._owned = stream;
            return reader;
        }
        catch
        {
            stream.Dispose();
            throw;
        }
    }

    /// <param name="stream">The input.</param>
    /// <param name="options">How to read it.</param>
    /// <param name="boundaries">Told of every record start the guard passes (see <see cref="RunawayQuoteGuard(Stream, char, int, int, Action{long, long})"/>), from the header on.</param>
    internal static CsvRecordReader Open(Stream stream, CsvOptions options, Action<long, long>? boundaries)
    {
        CsvRecordReader? owner = null;
        var separator = Separator(options.Delimiter);
        var text = new Utf16Input(stream);

        // Offsets in UTF-16 input are not the offsets of its UTF-8 form, which the guard counts: such input is not cut.
        var guard = new RunawayQuoteGuard(text, separator, options.MaxLinesInQuotes, options.MaxRecordBytes, boundaries is null ? null : (parserOffset, inputOffset) =>
        {
            if (!text.IsUtf16)
            {
                boundaries(parserOffset, inputOffset);
            }
        });
        var readerOptions = new CsvReaderOptions
        {
            Separator = separator,
            HasHeader = true,
            Mode = CsvMode.Rfc4180,
            SkipEmptyLines = true,
            TrackLineNumbers = true,
            DetectSeparatorHint = false,
            MalformedData = CsvMalformedDataHandling.Skip,
            FieldCountMismatch = CsvFieldCountHandling.Skip,
            OnMalformedRecord = malformed => owner?.OnMalformed(malformed),
            // The guard keeps records within MaxRecordBytes; this is the parser's own safety net beyond it.
            MaxRecordSize = (2 * options.MaxRecordBytes) + BufferSize,
            BufferSize = BufferSize,
            // Rows wait in partial batches; repeated values (carriers, airports) then cost one string each.
            PoolStrings = true,
        };
        var reader = CsvReader.Create(guard, readerOptions, leaveOpen: true);
        owner = new CsvRecordReader(reader, guard, text);
        owner.Header = owner.ReadHeader();
        return owner;
    }

    /// <summary>The separator a <c>Loader:Csv:Delimiter</c> setting stands for: one ASCII character, <c>\t</c> or <c>tab</c> for tab.</summary>
    public static char Separator(string configured) => configured switch
    {
        "\\t" or "tab" or "TAB" or "\t" => '\t',
        { Length: 1 } single when single[0] < 128 => single[0],
        _ => throw new FormatException($"'{configured}' is not one ASCII character (use \\t for tab)."),
    };

    /// <summary>Where a record the selector is given came from.</summary>
    public static RowOrigin OriginOf(CsvReader record) => new(record.RowNumber, record.LineNumber);

    public string Describe(RowOrigin origin) => string.Create(CultureInfo.InvariantCulture, $"line {origin.Line}");

    public IEnumerable<RecordResult<T>> ReadAll<T>(IRecordMapper<T> map, int parallelism) => ReadAll(csv => map.Map(new CsvFields(csv)), parallelism);

    private IReadOnlyList<string> ReadHeader()
    {
        try
        {
            var header = _reader.Headers;
            _readingHeader = false;
            if (header.Count == 0)
            {
                _guard.ThrowIfFailed(); // the input failed before its header ended
            }

            if (_headerProblem is not null)
            {
                throw new InputHeaderException($"the header row is malformed: {_headerProblem}");
            }

            if (header.Count == 0 || (header.Count == 1 && string.IsNullOrWhiteSpace(header[0])))
            {
                throw new InputHeaderException("the input is empty: expected a header row naming the columns.");
            }

            return [.. header.Select(name => name.Trim())];
        }
        catch (CsvFormatException exception)
        {
            throw new InputHeaderException($"the header row is malformed: {exception.Message}");
        }
    }

    /// <summary>
    /// Skips well-formed records without mapping them (resuming after a checkpoint), folding each into
    /// <paramref name="fingerprint"/> when given; returns how many were skipped.
    /// </summary>
    public long Skip(long records, RecordSequenceHash? fingerprint = null)
    {
        long skipped = 0;
        while (skipped < records && _reader.Read())
        {
            skipped++;
            LastSkippedLine = _reader.LineNumber;
            fingerprint?.Add(RecordSequenceHash.Digest(_reader.RawRecord));
        }

        MalformedSkipped += _malformed.Count;
        _malformed.Clear();
        if (skipped < records)
        {
            _guard.ThrowIfFailed();
        }

        return skipped;
    }

    /// <summary>
    /// Reads every remaining record in input order: well-formed ones mapped by <paramref name="map"/> on
    /// <paramref name="parallelism"/> threads (the reader it gets is valid only during the call), malformed
    /// ones as they were. Stop enumerating to stop reading.
    /// </summary>
    /// <exception cref="CsvFormatException">The input cannot be read on (a record longer than the parser's safety net, which the guard should have stopped first).</exception>
    /// <exception cref="IOException">The input failed part way (a damaged compressed file, a failed read): thrown once every whole record before the failure was given out.</exception>
    public IEnumerable<RecordResult<T>> ReadAll<T>(Func<CsvReader, T> map, int parallelism)
    {
        var results = parallelism > 1 ? _reader.ParallelEnumerate(map, parallelism) : Sequential(map);
        long goodRecords = 0;
        foreach (var value in results)
        {
            while (_malformed.TryPeek(out var head) && head.GoodRecordsBefore <= goodRecords)
            {
                _malformed.TryDequeue(out _);
                yield return new RecordResult<T>(default, head.Record);
            }

            goodRecords++;
            yield return new RecordResult<T>(value, null);
        }

        while (_malformed.TryDequeue(out var rest))
        {
            yield return new RecordResult<T>(default, rest.Record);
        }

        _guard.ThrowIfFailed();
    }

    /// <summary>
    /// Reads every remaining well-formed record without mapping it, giving where each starts: its offset in the bytes the
    /// parser reads (<see cref="CsvReader.ByteOffset"/>), its line and its record number.
    /// </summary>
    internal IEnumerable<(long ParserOffset, long Line, long Record)> RecordStarts()
    {
        while (_reader.Read())
        {
            yield return (_reader.ByteOffset, _reader.LineNumber, _reader.RowNumber);
        }

        _guard.ThrowIfFailed();
    }

    private IEnumerable<T> Sequential<T>(Func<CsvReader, T> map)
    {
        while (_reader.Read())
        {
            yield return map(_reader);
        }
    }

    /// <summary>Called by CsvHelper's scanning thread (one at a time, in input order).</summary>
    private void OnMalformed(CsvMalformedRecord malformed)
    {
        if (!malformed.Skipped)
        {
            return;
        }

        // Lines the guard rejected reach the parser as a marker: their own text and reason are with the guard.
        var (problem, text) = _guard.TryTake(malformed.LineNumber, out var rejected)
            ? (rejected.Reason, rejected.Text)
            : (Describe(malformed), malformed.RawRecord);
        if (_readingHeader)
        {
            _headerProblem ??= $"{problem} (line {malformed.LineNumber}: {Shorten(text)})";
            return;
        }

        // RecordNumber counts the header and the well-formed records returned before this one.
        var goodRecordsBefore = Math.Max(0, malformed.RecordNumber - 2);
        _malformed.Enqueue((goodRecordsBefore, new MalformedRecord(new RowOrigin(goodRecordsBefore, malformed.LineNumber), problem, text)));
    }

    private string Describe(CsvMalformedRecord malformed)
    {
        var lines = malformed.RawRecord.TrimEnd('\r', '\n').Count(c => c == '\n');
        return malformed.Reason switch
        {
            CsvMalformedReason.FieldCountMismatch => CountFields(malformed.RawRecord) is var fields && fields == 1
                ? string.Create(CultureInfo.InvariantCulture, $"has 1 field, the header has {Header.Count}")
                : string.Create(CultureInfo.InvariantCulture, $"has {fields} fields, the header has {Header.Count}"),
            CsvMalformedReason.StrayQuote => "malformed quoting: a quote inside an unquoted field",
            CsvMalformedReason.TextAfterClosingQuote when lines > 0 => string.Create(CultureInfo.InvariantCulture,
                $"malformed quoting: a quote opened on line {malformed.LineNumber} closes {lines} lines later and is followed by text; a quote that was never closed took in the lines between"),
            CsvMalformedReason.TextAfterClosingQuote => "malformed quoting: text after the closing quote of a field",
            CsvMalformedReason.UnterminatedQuote => "malformed quoting: a quoted field is never closed before the end of the input",
            CsvMalformedReason.LineBreakInQuotes => "malformed quoting: a line break inside a quoted field",
            _ => $"malformed record ({malformed.Reason})",
        };
    }

    private static string Shorten(string text) => InputText.Escape(text.Length <= 60 ? text : text[..60] + "…");

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

    public void Dispose()
    {
        _reader.Dispose();
        _guard.Dispose();
        _text.Dispose();
        _owned?.Dispose();
    }
}
