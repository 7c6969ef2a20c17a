using System.Globalization;
using System.Text;
using Loader.Abstractions;
using Loader.Worker.Records;

namespace Loader.Worker.JsonLines;

/// <summary>
/// Streams JSON Lines: one JSON object per line, UTF-8 (a byte-order mark is passed over), lines split on '\n' with a
/// '\r' before it dropped, blank lines passed over but counted. The columns are the paths of the first object; a later
/// object's other paths are its fields beyond them. A line that is not one object (bad JSON, a scalar, an array, a name
/// given twice, a line longer than the limit) comes back malformed, with its text, and reading goes on with the next.
/// Records are parsed on the reading thread and mapped, a chunk at a time, on up to <c>parallelism</c> threads, in order. Record numbers
/// count well-formed objects; lines count every line.
/// </summary>
internal sealed class JsonLinesReader : IRecordReader
{
    private const int BufferSize = 256 * 1024;
    private const int ChunkSize = 1024;

    // What a rejected line that is too long keeps of its text.
    private const int KeptTextBytes = 4096;

    private readonly Stream _stream;
    private readonly bool _ownsStream;
    private readonly JsonLinesSettings _settings;
    private readonly JsonLineParser _parser;
    private readonly Queue<Item> _pending = new();
    private readonly Dictionary<string, int> _columns = new(StringComparer.Ordinal);

    private byte[] _buffer = new byte[BufferSize];
    private long _bufferOffset; // the input offset of _buffer[0]
    private int _start;
    private int _end;
    private bool _ended;
    private bool _started;
    private long _lines;
    private long _records;

    private JsonLinesReader(Stream stream, bool ownsStream, JsonLinesSettings settings)
    {
        _stream = stream;
        _ownsStream = ownsStream;
        _settings = settings;
        _parser = new JsonLineParser(settings);
    }

    /// <summary>A record or a malformed line, and the input offset its line starts at.</summary>
    internal readonly record struct Item(JsonLine? Line, MalformedRecord? Malformed, long Offset);

    public IReadOnlyList<string> Columns { get; private set; } = [];

    public string TextEncoding => "UTF-8";

    public long LinesRead => _lines;

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
        MalformedRecord? firstBad = null;
        while (NextItem(first: true) is { } item)
        {
            _pending.Enqueue(item);
            if (item.Line is { } line)
            {
                return;
            }

            firstBad ??= item.Malformed;
        }

        throw new InputHeaderException(firstBad is null
            ? "the input is empty: expected JSON objects, one per line."
            : $"no line of the input is a JSON object; line {firstBad.Origin.Line}: {firstBad.Problem}.");
    }

    public string Describe(RowOrigin origin) => string.Create(CultureInfo.InvariantCulture, $"line {origin.Line}");

    public long Skip(long records, RecordSequenceHash? fingerprint = null)
    {
        long skipped = 0;
        while (skipped < records && Next() is { } item)
        {
            if (item.Line is { } line)
            {
                skipped++;
                LastSkippedLine = line.Origin.Line;
                fingerprint?.Add(RecordSequenceHash.Digest(line.Raw));
            }
            else
            {
                MalformedSkipped++;
            }
        }

        return skipped;
    }

    public IEnumerable<RecordResult<T>> ReadAll<T>(IRecordMapper<T> map, int parallelism)
    {
        if (parallelism <= 1)
        {
            while (Next() is { } item)
            {
                yield return Map(item, map);
            }

            yield break;
        }

        // A chunk is read and parsed on this thread, then mapped on the threads; a failure of the input is thrown here,
        // after every record before it was given out.
        var chunk = new List<Item>(ChunkSize);
        var results = new RecordResult<T>[ChunkSize];
        var options = new ParallelOptions { MaxDegreeOfParallelism = parallelism };
        Exception? failure = null;
        while (failure is null)
        {
            chunk.Clear();
            try
            {
                while (chunk.Count < ChunkSize && Next() is { } item)
                {
                    chunk.Add(item);
                }
            }
            catch (IOException exception)
            {
                failure = exception;
            }

            if (chunk.Count == 0)
            {
                break;
            }

            Parallel.For(0, chunk.Count, options, i => results[i] = Map(chunk[i], map));
            for (var i = 0; i < chunk.Count; i++)
            {
                yield return results[i];
            }
        }

        if (failure is not null)
        {
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(failure);
        }
    }

    /// <summary>Every remaining record or malformed line, unmapped, with the offset its line starts at.</summary>
    internal IEnumerable<Item> Items()
    {
        while (Next() is { } item)
        {
            yield return item;
        }
    }

    private static RecordResult<T> Map<T>(Item item, IRecordMapper<T> map) =>
        item.Line is { } line ? new RecordResult<T>(map.Map(new JsonFields(line)), null) : new RecordResult<T>(default, item.Malformed);

    private Item? Next() => _pending.TryDequeue(out var pending) ? pending : NextItem(first: false);

    /// <summary>The next record or malformed line; null at the end of the input.</summary>
    private Item? NextItem(bool first)
    {
        while (NextLine(out var start, out var length, out var tooLong))
        {
            var offset = _bufferOffset + start;
            if (tooLong is not null)
            {
                return Malformed(offset, string.Create(CultureInfo.InvariantCulture, $"the line is longer than Loader:Csv:MaxRecordBytes ({_settings.MaxLineBytes:N0} bytes)"), tooLong);
            }

            if (length > _settings.MaxLineBytes)
            {
                return Malformed(offset, string.Create(CultureInfo.InvariantCulture, $"the line is longer than Loader:Csv:MaxRecordBytes ({_settings.MaxLineBytes:N0} bytes)"), Encoding.UTF8.GetString(_buffer.AsSpan(start, KeptTextBytes)) + "…");
            }

            var text = _buffer.AsSpan(start, length);
            if (text.Length > 0 && text[^1] == (byte)'\r')
            {
                text = text[..^1];
            }

            if (text.Trim(" \t\r"u8).IsEmpty)
            {
                continue;
            }

            var origin = new RowOrigin(_records + 1, _lines);
            var leaves = _parser.Parse(text, _settings.RefuseNested && !first, out var unescaped, out var nested, out var problem);
            if (leaves is null)
            {
                return Malformed(offset, problem!, Encoding.UTF8.GetString(text));
            }

            if (first && Columns.Count == 0)
            {
                if (_settings.RefuseNested && nested is not null)
                {
                    throw new InputHeaderException(
                        $"the first object (line {_lines}) holds an object or array in property '{nested}', and Loader:Json:Nested is Refuse: Table Storage entities are flat. Set Loader:Json:Nested to Flatten to write its members as properties of their own.");
                }

                foreach (var leaf in leaves)
                {
                    _columns.Add(leaf.Path, _columns.Count);
                }

                Columns = [.. _columns.Keys];
            }

            var line = new JsonLine(text.ToArray(), text.Length, origin) { Unescaped = unescaped };
            line.SetColumns(_columns.Count);
            foreach (var leaf in leaves)
            {
                if (_columns.TryGetValue(leaf.Path, out var column))
                {
                    line.SetColumn(column, leaf);
                }
                else
                {
                    line.AddExtra(leaf);
                }
            }

            _records++;
            return new Item(line, null, offset);
        }

        return null;
    }

    private Item Malformed(long offset, string problem, string text) =>
        new(null, new MalformedRecord(new RowOrigin(_records, _lines), problem, text), offset);

    /// <summary>
    /// The next line, without its line break: where it is in the buffer (valid until the next call); for a line longer than
    /// the limit, the text kept of it instead (it is passed over to its end).
    /// </summary>
    private bool NextLine(out int start, out int length, out string? tooLong)
    {
        tooLong = null;
        var scanned = _start;
        while (true)
        {
            var found = _buffer.AsSpan(scanned, _end - scanned).IndexOf((byte)'\n');
            if (found >= 0)
            {
                start = _start;
                length = scanned + found - _start;
                _start = scanned + found + 1;
                _lines++;
                return true;
            }

            scanned = _end;
            if (_ended)
            {
                start = _start;
                length = _end - _start;
                _start = _end;
                if (length == 0)
                {
                    return false;
                }

                _lines++;
                return true;
            }

            if (_end - _start > _settings.MaxLineBytes)
            {
                start = _start;
                length = 0;
                tooLong = Encoding.UTF8.GetString(_buffer.AsSpan(_start, KeptTextBytes)) + "…";
                PassOverLine();
                _lines++;
                return true;
            }

            scanned -= Fill();
        }
    }

    /// <summary>Reads on past the end of the current line, which is too long to hold.</summary>
    private void PassOverLine()
    {
        while (true)
        {
            var found = _buffer.AsSpan(_start, _end - _start).IndexOf((byte)'\n');
            if (found >= 0)
            {
                _start += found + 1;
                return;
            }

            _bufferOffset += _end;
            _start = _end = 0;
            if (_ended)
            {
                return;
            }

            Fill();
        }
    }

    /// <summary>Moves the unread bytes to the buffer's start (growing it when they fill it) and reads more; returns how far the bytes moved.</summary>
    private int Fill()
    {
        var moved = _start;
        if (_start > 0)
        {
            _buffer.AsSpan(_start, _end - _start).CopyTo(_buffer);
            _bufferOffset += _start;
            _end -= _start;
            _start = 0;
        }

        if (_end == _buffer.Length)
        {
            Array.Resize(ref _buffer, _buffer.Length * 2);
        }

        var read = _stream.Read(_buffer, _end, _buffer.Length - _end);
        if (read == 0)
        {
            _ended = true;
        }

        _end += read;
        if (!_started && _end >= 3)
        {
            _started = true;
            if (_buffer.AsSpan(0, 3).SequenceEqual("\uFEFF"u8))
            {
                _start = 3;
            }
        }
        else if (!_started && _ended)
        {
            _started = true;
        }

        return moved;
    }

    public void Dispose()
    {
        if (_ownsStream)
        {
            _stream.Dispose();
        }
    }
}
