using System.Collections.Concurrent;
using System.Globalization;
using System.Text;
using Loader.Abstractions;
using Loader.Worker.Records;

namespace Loader.Worker.JsonLines;

/// <summary>
/// Streams JSON Lines: one JSON object per line (<see cref="JsonLineSource"/> finds the lines). The columns are the paths
/// of the first object; a later object's other paths are its fields beyond them. A line that is not one object (bad JSON,
/// a scalar, an array, a name given twice, a line longer than the limit) comes back malformed, with its text, and reading
/// goes on with the next. The reading thread only finds lines and copies them into a chunk; each line is parsed and mapped,
/// a chunk at a time, on up to <c>parallelism</c> threads, and given out in order. Record numbers count well-formed
/// objects; lines count every line.
/// </summary>
internal sealed class JsonLinesReader : IRecordReader
{
    private const int ChunkLines = 1024;

    // A chunk is handed on once its lines take this much, however few they are.
    private const int ChunkBytes = 1024 * 1024;

    private readonly Stream _stream;
    private readonly bool _ownsStream;
    private readonly JsonLinesSettings _settings;
    private readonly JsonLineSource _source;
    private readonly Queue<PendingLine> _pending = new();
    private readonly JsonLineChunk _chunk = new();
    private readonly ConcurrentBag<JsonLineParser> _parsers = [];
    private JsonNames _names = JsonNames.None;
    private JsonLineParser? _parser;
    private long _records;

    private JsonLinesReader(Stream stream, bool ownsStream, JsonLinesSettings settings)
    {
        _stream = stream;
        _ownsStream = ownsStream;
        _settings = settings;
        _source = new JsonLineSource(stream, settings.MaxLineBytes);
    }

    /// <summary>A record or a malformed line: where its line starts, and its record number (a malformed line's: of the record before it).</summary>
    internal readonly record struct Item(bool IsRecord, RowOrigin Origin, long Offset);

    /// <summary>A line read while looking for the first object: its text, or why it is no record.</summary>
    private sealed record PendingLine(byte[] Text, long Offset, long Line, string? Problem, string? KeptText);

    public IReadOnlyList<string> Columns => _names.Columns;

    public string TextEncoding => "UTF-8";

    public long LinesRead => _source.Lines;

    public long MalformedSkipped { get; private set; }

    public long LastSkippedLine { get; private set; }

    /// <summary>Opens <paramref name="stream"/> and reads up to its first object, whose paths are the columns.</summary>
    /// <exception cref="InputHeaderException">No line is a JSON object, or (<see cref="JsonLinesSettings.RefuseNested"/>) the first one nests.</exception>
    public static JsonLinesReader Open(Stream stream, JsonLinesSettings settings, bool ownsStream = false)
    {
        var reader = new JsonLinesReader(stream, ownsStream, settings);
        try
        {
            reader.ReadColumns();
            return reader;
        }
        catch
        {
            reader.Dispose();
            throw;
        }
    }

    private void ReadColumns()
    {
        string? firstBad = null;
        while (_source.Next(out var found))
        {
            if (found.Problem is not null)
            {
                _pending.Enqueue(new PendingLine([], found.Offset, found.Line, found.Problem, found.KeptText));
                firstBad ??= $"line {found.Line}: {found.Problem}";
                continue;
            }

            if (JsonLineParser.FirstObject(_settings, found.Text, out var nested, out var problem) is not { } names)
            {
                _pending.Enqueue(new PendingLine([], found.Offset, found.Line, problem, Encoding.UTF8.GetString(found.Text)));
                firstBad ??= $"line {found.Line}: {problem}";
                continue;
            }

            if (_settings.RefuseNested && nested is not null)
            {
                throw new InputHeaderException(
                    $"the first object (line {found.Line}) holds an object or array in property '{nested}', and Loader:Json:Nested is Refuse: Table Storage entities are flat. Set Loader:Json:Nested to Flatten to write its members as properties of their own.");
            }

            _names = names;
            _parser = new JsonLineParser(_settings, names);
            _pending.Enqueue(new PendingLine(found.Text.ToArray(), found.Offset, found.Line, null, null));
            return;
        }

        throw new InputHeaderException(firstBad is null
            ? "the input is empty: expected JSON objects, one per line."
            : $"no line of the input is a JSON object; {firstBad}.");
    }

    public string Describe(RowOrigin origin) => string.Create(CultureInfo.InvariantCulture, $"line {origin.Line}");

    public long Skip(long records, RecordSequenceHash? fingerprint = null)
    {
        long skipped = 0;
        while (skipped < records && Next(fingerprint) is { } item)
        {
            if (item.IsRecord)
            {
                skipped++;
                LastSkippedLine = item.Origin.Line;
            }
            else
            {
                MalformedSkipped++;
            }
        }

        return skipped;
    }

    /// <summary>Every remaining record or malformed line, unmapped, with the offset its line starts at.</summary>
    internal IEnumerable<Item> Items()
    {
        while (Next(fingerprint: null) is { } item)
        {
            yield return item;
        }
    }

    /// <summary>The next line, parsed on this thread; a record's digest folded into <paramref name="fingerprint"/>.</summary>
    private Item? Next(RecordSequenceHash? fingerprint)
    {
        if (!NextLine(out var found))
        {
            return null;
        }

        if (found.Problem is null && _parser!.Parse(found.Text, _settings.RefuseNested, out _))
        {
            _records++;
            fingerprint?.Add(RecordSequenceHash.Digest(found.Text));
            return new Item(true, new RowOrigin(_records, found.Line), found.Offset);
        }

        return new Item(false, new RowOrigin(_records, found.Line), found.Offset);
    }

    private bool NextLine(out JsonLineSource.Found found)
    {
        if (_pending.TryDequeue(out var pending))
        {
            found = new JsonLineSource.Found { Text = pending.Text, Offset = pending.Offset, Line = pending.Line, Problem = pending.Problem, KeptText = pending.KeptText };
            return true;
        }

        return _source.Next(out found);
    }

    public IEnumerable<RecordResult<T>> ReadAll<T>(IRecordMapper<T> map, int parallelism)
    {
        // A chunk is found on this thread, then parsed and mapped on the threads; a failure of the input is thrown here,
        // after every record before it was given out.
        var results = new RecordResult<T>[ChunkLines];
        var options = new ParallelOptions { MaxDegreeOfParallelism = parallelism };
        Exception? failure = null;
        while (failure is null)
        {
            try
            {
                FillChunk();
            }
            catch (Exception exception) when (exception is IOException or InvalidDataException)
            {
                failure = exception;
            }

            if (_chunk.Count == 0)
            {
                break;
            }

            if (parallelism <= 1)
            {
                for (var i = 0; i < _chunk.Count; i++)
                {
                    var result = Map(_parser!, i, _records + 1, map);
                    _records += result.Malformed is null ? 1 : 0;
                    yield return result;
                }

                continue;
            }

            // Each line is numbered as if every line before it in the chunk were a record; the few after a line that is
            // not are mapped again, here, with their own number.
            var first = _records;
            Parallel.For(0, _chunk.Count, options, RentParser, (i, _, parser) =>
            {
                results[i] = Map(parser, i, first + 1 + _chunk[i].CandidatesBefore, map);
                return parser;
            }, _parsers.Add);
            for (var i = 0; i < _chunk.Count; i++)
            {
                var result = results[i];
                if (result.Malformed is { } malformed)
                {
                    result = new RecordResult<T>(default, malformed with { Origin = new RowOrigin(_records, malformed.Origin.Line) });
                }
                else if (++_records != first + 1 + _chunk[i].CandidatesBefore)
                {
                    result = Map(_parser!, i, _records, map);
                }

                results[i] = default;
                yield return result;
            }
        }

        if (failure is not null)
        {
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(failure);
        }
    }

    private JsonLineParser RentParser() => _parsers.TryTake(out var parser) ? parser : new JsonLineParser(_settings, _names);

    /// <summary>Copies the next lines into the chunk, up to its size.</summary>
    private void FillChunk()
    {
        _chunk.Clear();
        while (_chunk.Count < ChunkLines && _chunk.Used < ChunkBytes && NextLine(out var found))
        {
            if (found.Problem is { } problem)
            {
                _chunk.AddUnread(found.Offset, found.Line, problem, found.KeptText!);
            }
            else
            {
                _chunk.Add(found.Text, found.Offset, found.Line);
            }
        }
    }

    /// <summary>The chunk's line <paramref name="index"/>, parsed and mapped as record <paramref name="record"/> (or malformed, after the record before it).</summary>
    private RecordResult<T> Map<T>(JsonLineParser parser, int index, long record, IRecordMapper<T> map)
    {
        var line = _chunk[index];
        if (line.Problem is { } unread)
        {
            return new RecordResult<T>(default, new MalformedRecord(new RowOrigin(record - 1, line.LineNumber), unread, line.KeptText!));
        }

        var text = _chunk.Text(line);
        return parser.Parse(text, _settings.RefuseNested, out var problem)
            ? new RecordResult<T>(map.Map(new JsonFields(parser, _chunk.Bytes, line.Start, line.Length, new RowOrigin(record, line.LineNumber))), null)
            : new RecordResult<T>(default, new MalformedRecord(new RowOrigin(record - 1, line.LineNumber), problem!, Encoding.UTF8.GetString(text)));
    }

    public void Dispose()
    {
        if (_ownsStream)
        {
            _stream.Dispose();
        }
    }
}
