using System.Buffers;

namespace Loader.Worker.Csv;

/// <summary>
/// Follows quotes and line breaks through CSV bytes as RFC 4180 reads them, and says where records start and which
/// bytes a quote that opened no field, or a record too long to hold, makes it reject (<see cref="RunawayQuoteGuard"/>
/// has the rules). It reads only the bytes it is given and keeps no buffer: its places are positions in the bytes it
/// scans, and the caller acts on each <see cref="ScanStep"/> it returns.
/// </summary>
/// <remarks>
/// The bytes given to <see cref="Step"/> must start at or before <see cref="RecordStart"/>, the oldest byte it may
/// look at again. Not thread-safe.
/// </remarks>
internal sealed class QuoteScanner(char separator, int maxLinesInQuotes, int maxRecordBytes)
{
    private const byte Quote = (byte)'"';
    private const byte CarriageReturn = (byte)'\r';
    private const byte LineFeed = (byte)'\n';

    /// <summary>What <see cref="After"/> gives when the byte is not held yet.</summary>
    private const int NotHeld = -2;

    private static readonly SearchValues<byte> s_quoteOrLineBreak = SearchValues.Create([Quote, CarriageReturn, LineFeed]);

    private readonly byte _separator = (byte)separator;

    // Where the scan stands: the current record and line, and the quote that holds the record open.
    private long _scan;
    private long _recordStart;
    private long _recordLine = 1;
    private long _lineStart;
    private long _line = 1;
    private bool _inQuotes;
    private long _quoteLine;
    private long _quoteLineStart;

    // A line too long to hold: its bytes are taken out as they come, up to its line break.
    private bool _dropping;

    /// <summary>Where the scan stands: every byte before it is scanned.</summary>
    public long Position => _scan;

    /// <summary>Where the current record starts.</summary>
    public long RecordStart => _recordStart;

    /// <summary>The line the scan stands on, from 1.</summary>
    public long Line => _line;

    /// <summary>Where that line starts.</summary>
    public long LineStart => _lineStart;

    /// <summary>What the last <see cref="ScanStep.Rejected"/> step rejects.</summary>
    public Rejection Rejection { get; private set; }

    /// <summary>Scans on from <see cref="Position"/> until there is something to act on.</summary>
    /// <param name="held">The bytes held, from <paramref name="origin"/> on.</param>
    /// <param name="origin">The position of the first byte of <paramref name="held"/>.</param>
    /// <param name="ended">No byte follows those held: the byte after the last is the end of the input.</param>
    public ScanStep Step(ReadOnlySpan<byte> held, long origin, bool ended)
    {
        var end = origin + held.Length;
        while (_scan < end)
        {
            if (_dropping)
            {
                return DropLine(held, origin, ended);
            }

            var from = (int)(_scan - origin);
            var found = held[from..].IndexOfAny(s_quoteOrLineBreak);
            if (found < 0)
            {
                _scan = end;
                return PastHeld(held, origin);
            }

            var at = from + found;
            var step = held[at] == Quote ? OnQuote(held, origin, at, ended) : OnLineBreak(held, origin, at, ended);
            if (step is { } acted)
            {
                return acted;
            }
        }

        return ScanStep.More;
    }

    /// <summary>
    /// The input ended at <see cref="Position"/>, everything before it scanned: true when what is still open is rejected
    /// (<see cref="Rejection"/>: a quote that never closed, or a line too long that never ended).
    /// </summary>
    public bool Finish(ReadOnlySpan<byte> held, long origin)
    {
        if (_dropping)
        {
            Rejection = new Rejection(_scan, _scan, _scan, _recordLine, _line, (int)(_line - _recordLine), EndsMidLine: false, RejectReason.LineTooLong, _quoteLine, _line);
            return true;
        }

        if (_inQuotes)
        {
            RejectOpening(held, origin, RejectReason.QuoteNeverCloses);
            return true;
        }

        return false;
    }

    /// <summary>Scans on from <paramref name="position"/> as a fresh record on <paramref name="line"/>, which starts at <paramref name="lineStart"/>.</summary>
    public void Restart(long lineStart, long position, long line)
    {
        _scan = position;
        _recordStart = position;
        _lineStart = lineStart;
        _line = line;
        _recordLine = line;
        _inQuotes = false;
        _dropping = false;
    }

    /// <summary>Line breaks in <paramref name="text"/>: CR LF, a lone CR, or LF.</summary>
    public static int CountLineBreaks(ReadOnlySpan<byte> text)
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

    /// <summary>Everything held is scanned and no line break ended the line: it may have grown past what may be held.</summary>
    private ScanStep PastHeld(ReadOnlySpan<byte> held, long origin)
    {
        if (_inQuotes && _quoteLine < _line && _scan - _recordStart > maxRecordBytes)
        {
            return RejectOpening(held, origin, RejectReason.QuoteOpenPastBytes);
        }

        if (_scan - _lineStart > maxRecordBytes)
        {
            // The record's earlier lines (a field spanning them) go with it.
            _dropping = true;
            _scan = _recordStart;
            return ScanStep.Drop;
        }

        return ScanStep.More;
    }

    private ScanStep? OnQuote(ReadOnlySpan<byte> held, long origin, int at, bool ended)
    {
        var position = origin + at;
        if (!_inQuotes)
        {
            // A quote opens a field only as its first character; elsewhere it is the parser's to reject.
            if (position == _lineStart || held[at - 1] == _separator)
            {
                _inQuotes = true;
                _quoteLine = _line;
                _quoteLineStart = _lineStart;
            }

            _scan = position + 1;
            return null;
        }

        var next = After(held, at, ended);
        if (next == NotHeld)
        {
            return ScanStep.More;
        }

        if (next == Quote)
        {
            _scan = position + 2; // a doubled quote inside the field
            return null;
        }

        _inQuotes = false;
        _scan = position + 1;
        if (_quoteLine < _line && next >= 0 && next != _separator && next != CarriageReturn && next != LineFeed)
        {
            // Closed on a later line and followed by text: the quote never opened a field; the next quote in the file
            // (of some later record) happened to close it.
            return RejectOpening(held, origin, RejectReason.QuoteClosedByText);
        }

        return null;
    }

    private ScanStep? OnLineBreak(ReadOnlySpan<byte> held, long origin, int at, bool ended)
    {
        // A carriage return with a line feed after it is one line break; a lone carriage return is one too.
        var end = at + 1;
        if (held[at] == CarriageReturn)
        {
            var next = After(held, at, ended);
            if (next == NotHeld)
            {
                return ScanStep.More;
            }

            end = at + (next == LineFeed ? 2 : 1);
        }

        _scan = origin + end;
        _line++;
        _lineStart = _scan;
        if (_inQuotes)
        {
            if (_line - _quoteLine > maxLinesInQuotes)
            {
                return RejectOpening(held, origin, RejectReason.QuoteOpenPastLines);
            }

            if (_scan - _recordStart > maxRecordBytes)
            {
                return RejectOpening(held, origin, RejectReason.QuoteOpenPastBytes);
            }

            return null;
        }

        if (_scan - _recordStart > maxRecordBytes)
        {
            // A line, or a record of several (line breaks inside quotes), holding more than any entity may.
            return Reject(held, origin, _recordStart, _scan, RejectReason.RecordTooLong);
        }

        _recordStart = _scan;
        _recordLine = _line;
        return ScanStep.RecordStart;
    }

    /// <summary>Takes the bytes of a line too long out as they come; its line break ends the record's rejection.</summary>
    private ScanStep DropLine(ReadOnlySpan<byte> held, long origin, bool ended)
    {
        var from = (int)(_scan - origin);
        var found = held[from..].IndexOfAny(CarriageReturn, LineFeed);
        if (found < 0)
        {
            return ScanStep.Drop;
        }

        var at = from + found;
        var next = held[at] == CarriageReturn ? After(held, at, ended) : -1;
        if (next == NotHeld)
        {
            return ScanStep.More;
        }

        var end = at + (next == LineFeed ? 2 : 1);
        Rejection = new Rejection(_scan, origin + end, origin + at, _recordLine, _line, (int)(_line - _recordLine) + 1, EndsMidLine: false, RejectReason.LineTooLong, _quoteLine, _line);
        return ScanStep.Rejected;
    }

    /// <summary>
    /// The quote that opened on <see cref="_quoteLine"/> opened no field: the record's lines up to that one are
    /// rejected, and the lines after it are to be scanned again as fresh records.
    /// </summary>
    private ScanStep RejectOpening(ReadOnlySpan<byte> held, long origin, RejectReason reason) =>
        Reject(held, origin, _recordStart, LineEnd(held, origin, _quoteLineStart), reason);

    private ScanStep Reject(ReadOnlySpan<byte> held, long origin, long start, long end, RejectReason reason)
    {
        var bytes = held[(int)(start - origin)..(int)(end - origin)];
        var breaks = CountLineBreaks(bytes);
        var endsWithLineBreak = bytes.Length > 0 && bytes[^1] is CarriageReturn or LineFeed;
        var lastLine = _recordLine + Math.Max(0, breaks - (endsWithLineBreak ? 1 : 0));
        Rejection = new Rejection(start, end, end, _recordLine, lastLine, breaks, EndsMidLine: breaks > 0 && !endsWithLineBreak, reason, _quoteLine, _line);
        return ScanStep.Rejected;
    }

    /// <summary>The end of the line that starts at <paramref name="lineStart"/>, after its line break.</summary>
    private static long LineEnd(ReadOnlySpan<byte> held, long origin, long lineStart)
    {
        var from = (int)(lineStart - origin);
        var found = held[from..].IndexOfAny(CarriageReturn, LineFeed);
        if (found < 0)
        {
            return origin + held.Length;
        }

        var end = from + found + 1;
        return origin + (held[end - 1] == CarriageReturn && end < held.Length && held[end] == LineFeed ? end + 1 : end);
    }

    /// <summary>The byte after <paramref name="at"/> (to tell a doubled quote, or CR LF): -1 at the end of the input, <see cref="NotHeld"/> when it is still to come.</summary>
    private static int After(ReadOnlySpan<byte> held, int at, bool ended) =>
        at + 1 < held.Length ? held[at + 1] : ended ? -1 : NotHeld;
}
