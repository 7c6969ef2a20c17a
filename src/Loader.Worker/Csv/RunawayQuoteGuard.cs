using System.Buffers;
using System.Collections.Concurrent;
using System.Globalization;
using System.Runtime.ExceptionServices;
using System.Text;

namespace Loader.Worker.Csv;

/// <summary>
/// Stands between the input and the CSV parser and keeps one bad quote from swallowing the rest of the file. In
/// RFC 4180 a quote that opens a field runs until the next quote, line breaks and all, so a free-text cell with a stray
/// opening quote (<c>10,P1,"oops,10</c>) would make one record of every line after it. A quoted field may span lines,
/// but a quote that runs past <c>maxLinesInQuotes</c> lines or <c>maxRecordBytes</c> bytes (no entity of either
/// service holds more), never closes, or closes on a later line only to be followed by more text (so it never opened a
/// field) is taken for what it is: the record's lines up to the one where it opened are rejected as one malformed
/// record, and reading goes on with the next line as a fresh record. A single line longer than <c>maxRecordBytes</c>,
/// or a record of several lines longer than that, is rejected too, and reading goes on after it.
/// </summary>
/// <remarks>
/// Lines are held back only while a quoted field spans them, so memory stays within about twice <c>maxRecordBytes</c>.
/// Rejected lines reach the parser as one short malformed line (a stray quote) followed by as many line breaks as they
/// had, so every later line keeps its number; <see cref="TryTake"/> then gives the reader their text and the reason.
/// Input in UTF-32 (a byte-order mark says so) passes through untouched: the scan reads UTF-8 bytes, and UTF-16 reaches
/// it as UTF-8 already (<see cref="Utf16Input"/>). The inner stream stays open: whoever opened it closes it. When the
/// input fails part way (a damaged compressed file, a read that failed), the records read whole before the failure still
/// reach the parser, then the output ends and <see cref="ThrowIfFailed"/> says why; what was read of the record it cut is
/// dropped, neither given out nor rejected.
/// Written here because CsvHelper bounds only a record's size (and then stops reading) or forbids line breaks in quotes
/// altogether; DuckDB's CSV reader, which recovers this way, is not a .NET library.
/// </remarks>
internal sealed class RunawayQuoteGuard : ForwardReadStream
{
    private const byte Quote = (byte)'"';
    private const byte CarriageReturn = (byte)'\r';
    private const byte LineFeed = (byte)'\n';
    private const int ChunkSize = 64 * 1024;

    /// <summary>How much of a line too long to hold is kept for the rejects file.</summary>
    internal const int KeptTextBytes = 4096;

    // What rejected lines turn into for the parser: a quote inside an unquoted field, which it reports as malformed.
    private static readonly byte[] s_marker = "-\""u8.ToArray();
    private static readonly SearchValues<byte> s_quoteOrLineBreak = SearchValues.Create([Quote, CarriageReturn, LineFeed]);

    private readonly Stream _inner;
    private readonly byte _separator;
    private readonly int _maxLinesInQuotes;
    private readonly int _maxRecordBytes;
    private readonly ConcurrentDictionary<long, RejectedSpan> _rejected = new();

    // Bytes read and not yet given to the parser: [_emitStart, _length), scanned up to _scan; those before _releasable
    // may go (the current record is held while a quote keeps it open).
    private byte[] _buffer = new byte[ChunkSize * 2];
    private int _emitStart;
    private int _length;
    private int _scan;
    private int _releasable;
    private bool _innerEnded;
    private bool _started;
    private bool _passThrough;
    private bool _finished;
    private bool _endedMidLine;
    private bool _lastLineRejected;

    // Why the input stopped short (a damaged compressed file, a failed read): said once the records before it are out.
    private ExceptionDispatchInfo? _failure;

    // How far the held bytes have moved to the front of the buffer in all: positions taken before a read are shifted by what it adds.
    private long _compacted;

    // Bytes the parser is given beyond those read from the input (markers in, rejected spans out): all of it lies before
    // the scan, so a position at the scan is that much further along in the parser's bytes than in the input's.
    private long _netInserted;

    // Where the scan stands: the current record and line, and the quote that holds the record open.
    private int _recordStart;
    private long _recordLine = 1;
    private int _lineStart;
    private long _line = 1;
    private bool _inQuotes;
    private long _quoteLine;
    private int _quoteLineStart;

    // A line too long to hold, dropped up to its line break; the record's text from its start is kept in part.
    private bool _discarding;
    private readonly byte[] _discardedText = new byte[KeptTextBytes];
    private int _discardedTextLength;

    public RunawayQuoteGuard(Stream inner, char separator, int maxLinesInQuotes, int maxRecordBytes)
    {
        _inner = inner;
        _separator = (byte)separator;
        _maxLinesInQuotes = maxLinesInQuotes;
        _maxRecordBytes = maxRecordBytes;
    }

    /// <summary>Lines of the input read so far, header and blank lines included (final once the parser has read to the end).</summary>
    public long LinesRead => _line - 1 + (_endedMidLine ? 1 : 0);

    /// <summary>
    /// Told of every record boundary the scan passes: where a record starts (outside quotes, after a line break or a
    /// rejected span) as an offset in the bytes given to the parser and in the input. A planning pass cuts the input
    /// there; a reader started at such an input offset sees what the whole input's reader saw from it on.
    /// </summary>
    internal Action<long, long>? BoundaryFound { get; set; }

    /// <summary>
    /// Throws what stopped the input short, if anything did. The guard ends its output at the last whole record before
    /// the failure, so that a parser reading ahead gives out every record before it; its reader asks here once they are out.
    /// </summary>
    public void ThrowIfFailed() => _failure?.Throw();

    /// <summary>The lines the guard rejected from <paramref name="line"/> on, with their text and why; each is taken once.</summary>
    public bool TryTake(long line, out RejectedSpan span) => _rejected.TryRemove(line, out span!);

    public override int Read(Span<byte> destination)
    {
        if (destination.IsEmpty)
        {
            return 0;
        }

        if (!_started)
        {
            Start();
        }

        if (_passThrough)
        {
            return ReadThrough(destination);
        }

        while (_releasable == _emitStart && !_finished)
        {
            Advance();
        }

        var count = Math.Min(destination.Length, _releasable - _emitStart);
        _buffer.AsSpan(_emitStart, count).CopyTo(destination);
        _emitStart += count;
        return count;
    }

    private void Start()
    {
        _started = true;
        while (_length < 4 && Fill())
        {
        }

        var start = _buffer.AsSpan(0, _length);
        _passThrough = start.StartsWith((ReadOnlySpan<byte>)[0xFF, 0xFE]) || start.StartsWith((ReadOnlySpan<byte>)[0xFE, 0xFF])
            || start.StartsWith((ReadOnlySpan<byte>)[0x00, 0x00, 0xFE, 0xFF]);
    }

    private int ReadThrough(Span<byte> destination)
    {
        if (_emitStart == _length)
        {
            return _inner.Read(destination);
        }

        var count = Math.Min(destination.Length, _length - _emitStart);
        _buffer.AsSpan(_emitStart, count).CopyTo(destination);
        _emitStart += count;
        return count;
    }

    /// <summary>Scans on from where the scan stands, reading more when it has seen everything read.</summary>
    private void Advance()
    {
        if (_scan < _length)
        {
            Scan();
        }
        else if (_innerEnded || !Fill())
        {
            _innerEnded = true;
            EndOfInput();
        }
    }

    /// <summary>Reads the next chunk after what is held; false at the end of the input.</summary>
    private bool Fill()
    {
        if (_emitStart > 0 && _emitStart == _releasable)
        {
            Compact();
        }

        if (_buffer.Length - _length < ChunkSize)
        {
            Array.Resize(ref _buffer, Math.Max(_buffer.Length * 2, _length + ChunkSize));
        }

        int read;
        try
        {
            read = _inner.Read(_buffer, _length, ChunkSize);
        }
        catch (IOException exception)
        {
            // The records read whole before the failure still go to the parser; the failure follows them.
            _failure = ExceptionDispatchInfo.Capture(exception);
            return false;
        }

        _length += read;
        return read > 0;
    }

    private void Compact()
    {
        var shift = _emitStart;
        Array.Copy(_buffer, shift, _buffer, 0, _length - shift);
        _length -= shift;
        _scan -= shift;
        _releasable -= shift;
        _recordStart -= shift;
        _lineStart -= shift;
        _quoteLineStart -= shift;
        _emitStart = 0;
        _compacted += shift;
    }

    /// <summary>
    /// The byte after <paramref name="at"/> (to tell a doubled quote, or CR LF), reading on when it is not read yet (which
    /// may move the held bytes: <paramref name="at"/> follows them). -1 at the end of the input.
    /// </summary>
    private int Next(ref int at)
    {
        while (at + 1 >= _length && !_innerEnded)
        {
            var compacted = _compacted;
            if (!Fill())
            {
                _innerEnded = true;
            }

            at -= (int)(_compacted - compacted);
        }

        return at + 1 < _length ? _buffer[at + 1] : -1;
    }

    private void Scan()
    {
        if (_discarding)
        {
            Discard();
            return;
        }

        var found = _buffer.AsSpan(_scan, _length - _scan).IndexOfAny(s_quoteOrLineBreak);
        if (found >= 0)
        {
            var at = _scan + found;
            if (_buffer[at] == Quote)
            {
                OnQuote(at);
            }
            else
            {
                OnLineBreak(at);
            }

            return;
        }

        _scan = _length;
        if (_inQuotes && _quoteLine < _line && _scan - _recordStart > _maxRecordBytes)
        {
            RejectOpening(string.Create(CultureInfo.InvariantCulture, $"a quote opened on line {_quoteLine} does not close within {Size(_maxRecordBytes)} (Loader:Csv:MaxRecordBytes)"));
        }
        else if (_scan - _lineStart > _maxRecordBytes)
        {
            StartDiscarding();
        }
    }

    private void OnQuote(int at)
    {
        if (!_inQuotes)
        {
            // A quote opens a field only as its first character; elsewhere it is the parser's to reject.
            if (at == _lineStart || _buffer[at - 1] == _separator)
            {
                _inQuotes = true;
                _quoteLine = _line;
                _quoteLineStart = _lineStart;
            }

            _scan = at + 1;
            return;
        }

        var next = Next(ref at);
        if (next == Quote)
        {
            _scan = at + 2; // a doubled quote inside the field
            return;
        }

        _inQuotes = false;
        _scan = at + 1;
        if (_quoteLine < _line && next >= 0 && next != _separator && next != CarriageReturn && next != LineFeed)
        {
            // Closed on a later line and followed by text: the quote never opened a field; the next quote in the file
            // (of some later record) happened to close it.
            RejectOpening(string.Create(CultureInfo.InvariantCulture, $"a quote opened on line {_quoteLine} is closed only on line {_line}, by a quote followed by text"));
        }
    }

    private void OnLineBreak(int at)
    {
        // A carriage return with a line feed after it is one line break; a lone carriage return is one too.
        var end = at + 1;
        if (_buffer[at] == CarriageReturn)
        {
            var next = Next(ref at);
            end = at + (next == LineFeed ? 2 : 1);
        }

        _scan = end;
        _line++;
        _lineStart = end;
        if (_inQuotes)
        {
            if (_line - _quoteLine > _maxLinesInQuotes)
            {
                RejectOpening(string.Create(CultureInfo.InvariantCulture, $"a quote opened on line {_quoteLine} does not close within {_maxLinesInQuotes:N0} lines (Loader:Csv:MaxLinesInQuotes)"));
            }
            else if (end - _recordStart > _maxRecordBytes)
            {
                RejectOpening(string.Create(CultureInfo.InvariantCulture, $"a quote opened on line {_quoteLine} does not close within {Size(_maxRecordBytes)} (Loader:Csv:MaxRecordBytes)"));
            }

            return;
        }

        if (end - _recordStart > _maxRecordBytes)
        {
            // A line, or a record of several (line breaks inside quotes), holding more than any entity may.
            RejectSpan(_recordStart, end, _recordLine, TooLong(_recordLine, _line - 1), keep: KeptTextBytes);
            return;
        }

        _recordStart = end;
        _recordLine = _line;
        _releasable = end;
        BoundaryFound?.Invoke(_compacted + end, _compacted + end - _netInserted);
    }

    private void EndOfInput()
    {
        if (_failure is not null)
        {
            // What follows the last whole record may be cut anywhere: none of it is given out, nor rejected.
            _finished = true;
        }
        else if (_discarding)
        {
            EndDiscarding(lineBreaks: 0);
        }
        else if (_inQuotes)
        {
            RejectOpening($"a quote opened on line {_quoteLine} never closes before the end of the input");
        }
        else
        {
            _endedMidLine = _lineStart < _length || _lastLineRejected;
            _releasable = _length;
            _finished = true;
        }
    }

    /// <summary>
    /// The quote that opened on <see cref="_quoteLine"/> opened no field: the record's lines up to that one are
    /// rejected, and the lines after it are scanned again as fresh records.
    /// </summary>
    private void RejectOpening(string problem) =>
        RejectSpan(_recordStart, LineEnd(_quoteLineStart), _recordLine, $"malformed quoting: {problem}; the record up to that line is rejected and reading goes on after it");

    /// <summary>
    /// Rejects the lines in [<paramref name="start"/>, <paramref name="end"/>) from <paramref name="firstLine"/> on (their
    /// text, or its first <paramref name="keep"/> bytes), puts the marker in their place, and scans on after it.
    /// </summary>
    private void RejectSpan(int start, int end, long firstLine, string reason, int keep = int.MaxValue)
    {
        var breaks = CountLineBreaks(_buffer.AsSpan(start, end - start));
        var endsWithLineBreak = end > start && _buffer[end - 1] is CarriageReturn or LineFeed;
        var text = end - start > keep ? Encoding.UTF8.GetString(_buffer, start, keep) + "…" : Encoding.UTF8.GetString(_buffer, start, end - start);
        _rejected[firstLine] = new RejectedSpan(firstLine, firstLine + Math.Max(0, breaks - (endsWithLineBreak ? 1 : 0)), text, reason);
        Splice(start, end, Marker(breaks));
        ResumeAfterMarker(start, firstLine, breaks);

        // The input ended inside the span, on a line without a line break: that line is read too.
        _lastLineRejected |= breaks > 0 && !endsWithLineBreak;
    }

    private void ResumeAfterMarker(int start, long firstLine, int breaks)
    {
        var resume = start + s_marker.Length + breaks;
        _scan = resume;
        _lineStart = breaks == 0 ? start : resume; // a marker without a line break is the last line, not yet ended
        _recordStart = resume;
        _line = firstLine + breaks;
        _recordLine = _line;
        _inQuotes = false;
        _releasable = resume;
        BoundaryFound?.Invoke(_compacted + resume, _compacted + resume - _netInserted);
    }

    /// <summary>A line too long to hold: the record's text from its start is kept in part, the rest dropped up to the line break.</summary>
    private void StartDiscarding()
    {
        // The record's earlier lines (a field spanning them) go with it: kept in part, taken out with their line breaks.
        _discarding = true;
        _discardedTextLength = Math.Min(KeptTextBytes, _lineStart - _recordStart);
        _buffer.AsSpan(_recordStart, _discardedTextLength).CopyTo(_discardedText);
        Splice(_recordStart, _lineStart, []);
        _lineStart = _recordStart;
        _scan = _recordStart;
        Discard();
    }

    private void Discard()
    {
        var found = _buffer.AsSpan(_scan, _length - _scan).IndexOfAny(CarriageReturn, LineFeed);
        var end = found < 0 ? _length : _scan + found;
        var kept = Math.Min(KeptTextBytes - _discardedTextLength, end - _scan);
        _buffer.AsSpan(_scan, kept).CopyTo(_discardedText.AsSpan(_discardedTextLength));
        _discardedTextLength += kept;
        if (found < 0)
        {
            _netInserted -= _length - _scan;
            _length = _scan; // dropped
            return;
        }

        var next = _buffer[end] == CarriageReturn ? Next(ref end) : -1;
        Splice(_scan, end + (next == LineFeed ? 2 : 1), []);
        EndDiscarding(lineBreaks: 1);
    }

    private void EndDiscarding(int lineBreaks)
    {
        _discarding = false;
        var breaks = (int)(_line - _recordLine) + lineBreaks;
        var text = Encoding.UTF8.GetString(_discardedText, 0, _discardedTextLength) + "…";
        _rejected[_recordLine] = new RejectedSpan(_recordLine, _line, text, TooLong(_recordLine, _line));
        Splice(_recordStart, _recordStart, Marker(breaks));
        ResumeAfterMarker(_recordStart, _recordLine, breaks);
    }

    private string TooLong(long firstLine, long lastLine) => firstLine == lastLine
        ? string.Create(CultureInfo.InvariantCulture, $"line {firstLine} is longer than {Size(_maxRecordBytes)} (Loader:Csv:MaxRecordBytes), more than any entity can hold; its first {KeptTextBytes:N0} bytes are kept here")
        : string.Create(CultureInfo.InvariantCulture, $"the record on lines {firstLine} to {lastLine} is longer than {Size(_maxRecordBytes)} (Loader:Csv:MaxRecordBytes), more than any entity can hold; its first {KeptTextBytes:N0} bytes are kept here");

    /// <summary>The end of the line that starts at <paramref name="lineStart"/>, after its line break.</summary>
    private int LineEnd(int lineStart)
    {
        var found = _buffer.AsSpan(lineStart, _length - lineStart).IndexOfAny(CarriageReturn, LineFeed);
        if (found < 0)
        {
            return _length;
        }

        var end = lineStart + found + 1;
        return _buffer[end - 1] == CarriageReturn && end < _length && _buffer[end] == LineFeed ? end + 1 : end;
    }

    private static int CountLineBreaks(ReadOnlySpan<byte> text)
    {
        var breaks = 0;
        for (var i = 0; i < text.Length; i++)
        {
            if (text[i] == LineFeed || (text[i] == CarriageReturn && (i + 1 == text.Length || text[i + 1] != LineFeed)))
            {
                breaks++;
            }
        }

        return breaks;
    }

    private static byte[] Marker(int lineBreaks)
    {
        var marker = new byte[s_marker.Length + lineBreaks];
        s_marker.CopyTo(marker, 0);
        marker.AsSpan(s_marker.Length).Fill(LineFeed);
        return marker;
    }

    private void Splice(int start, int end, byte[] replacement)
    {
        var tail = _length - end;
        var length = start + replacement.Length + tail;
        if (length > _buffer.Length)
        {
            Array.Resize(ref _buffer, length + ChunkSize);
        }

        Array.Copy(_buffer, end, _buffer, start + replacement.Length, tail);
        replacement.CopyTo(_buffer, start);
        _length = length;
        _netInserted += replacement.Length - (end - start);
    }

    private static string Size(int bytes) => bytes % (1024 * 1024) == 0
        ? string.Create(CultureInfo.InvariantCulture, $"{bytes / (1024 * 1024)} MiB")
        : string.Create(CultureInfo.InvariantCulture, $"{bytes:N0} bytes");
}

/// <summary>Lines the guard rejected, with their text as they stood in the input and why.</summary>
internal sealed record RejectedSpan(long FirstLine, long LastLine, string Text, string Reason);
