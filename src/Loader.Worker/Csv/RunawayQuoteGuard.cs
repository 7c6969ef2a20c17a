using Loader.Worker.Inputs;
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
/// Three parts do the work: <see cref="ByteWindow"/> holds what was read and gives out what may go,
/// <see cref="QuoteScanner"/> follows quotes and lines through it, and <see cref="RejectedLines"/> keeps what was
/// rejected, worded; the guard acts on what the scanner finds. Lines are held back only while a quoted field spans
/// them, so memory stays within about twice <c>maxRecordBytes</c>. Rejected lines reach the parser as one short
/// malformed line (a stray quote) followed by as many line breaks as they had, so every later line keeps its number;
/// <see cref="TryTake"/> then gives the reader their text and the reason.
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
    // What rejected lines turn into for the parser: a quote inside an unquoted field, which it reports as malformed.
    private static readonly byte[] s_marker = "-\""u8.ToArray();

    private readonly ByteWindow _window;
    private readonly QuoteScanner _scanner;
    private readonly RejectedLines _rejected;
    private readonly Action<long, long>? _recordStarts;

    private bool _started;
    private bool _passThrough;
    private bool _finished;
    private bool _endedMidLine;
    private bool _lastLineRejected;

    /// <param name="inner">The input.</param>
    /// <param name="separator">The field separator.</param>
    /// <param name="maxLinesInQuotes">Lines a quoted field may span.</param>
    /// <param name="maxRecordBytes">Bytes a record may hold.</param>
    /// <param name="recordStarts">
    /// Told of every record start the scan passes (outside quotes, after a line break or a rejected span) as an offset in
    /// the bytes given to the parser and in the input. A planning pass cuts the input there; a reader started at such an
    /// input offset sees what the whole input's reader saw from it on.
    /// </param>
    public RunawayQuoteGuard(Stream inner, char separator, int maxLinesInQuotes, int maxRecordBytes, Action<long, long>? recordStarts = null)
    {
        _window = new ByteWindow(inner);
        _scanner = new QuoteScanner(separator, maxLinesInQuotes, maxRecordBytes);
        _rejected = new RejectedLines(maxLinesInQuotes, maxRecordBytes);
        _recordStarts = recordStarts;
    }

    /// <summary>Lines of the input read so far, header and blank lines included (final once the parser has read to the end).</summary>
    public long LinesRead => _scanner.Line - 1 + (_endedMidLine ? 1 : 0);

    /// <summary>
    /// Throws what stopped the input short, if anything did. The guard ends its output at the last whole record before
    /// the failure, so that a parser reading ahead gives out every record before it; its reader asks here once they are out.
    /// </summary>
    public void ThrowIfFailed() => _window.ThrowIfFailed();

    /// <summary>The lines the guard rejected from <paramref name="line"/> on, with their text and why; each is taken once.</summary>
    public bool TryTake(long line, out RejectedSpan span) => _rejected.TryTake(line, out span);

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
            return _window.TakeThrough(destination);
        }

        while (!_window.HasReleased && !_finished)
        {
            Advance();
        }

        return _window.Take(destination);
    }

    private void Start()
    {
        _started = true;
        _window.FillTo(4);
        var start = _window.Held;
        _passThrough = start.StartsWith((ReadOnlySpan<byte>)[0xFF, 0xFE]) || start.StartsWith((ReadOnlySpan<byte>)[0xFE, 0xFF])
            || start.StartsWith((ReadOnlySpan<byte>)[0x00, 0x00, 0xFE, 0xFF]);
    }

    /// <summary>Scans on, reading more when the scanner has seen everything read, and acts on what it finds.</summary>
    private void Advance()
    {
        switch (_scanner.Step(_window.Held, _window.Origin, _window.Ended))
        {
            case ScanStep.RecordStart:
                Release(_scanner.RecordStart);
                break;
            case ScanStep.Rejected:
                Replace(_scanner.Rejection);
                break;
            case ScanStep.Drop:
                _rejected.Dropped(_window.Slice(_scanner.Position, _window.End));
                _window.Truncate(_scanner.Position);
                break;
            default:
                if (!_window.Fill() && _scanner.Position == _window.End)
                {
                    EndOfInput();
                }

                break;
        }
    }

    private void EndOfInput()
    {
        if (_window.Failed)
        {
            // What follows the last whole record may be cut anywhere: none of it is given out, nor rejected.
            _finished = true;
        }
        else if (_scanner.Finish(_window.Held, _window.Origin))
        {
            Replace(_scanner.Rejection);
        }
        else
        {
            _endedMidLine = _scanner.LineStart < _window.End || _lastLineRejected;
            _window.Release(_window.End);
            _finished = true;
        }
    }

    /// <summary>Keeps the rejected lines' text and reason, puts the marker in their place, and scans on after it.</summary>
    private void Replace(in Rejection rejection)
    {
        _rejected.Add(rejection, _window.Slice(rejection.Start, rejection.TextEnd));
        var marker = Marker(rejection.LineBreaks);
        _window.Splice(rejection.Start, rejection.End, marker);
        var resume = rejection.Start + marker.Length;

        // A marker without a line break is the last line, not yet ended.
        _scanner.Restart(rejection.LineBreaks == 0 ? rejection.Start : resume, resume, rejection.FirstLine + rejection.LineBreaks);

        // The input ended inside the span, on a line without a line break: that line is read too.
        _lastLineRejected |= rejection.EndsMidLine;
        Release(resume);
    }

    /// <summary>A record starts at <paramref name="position"/>: the bytes before it may go to the parser.</summary>
    private void Release(long position)
    {
        _window.Release(position);
        _recordStarts?.Invoke(position, _window.InputOffset(position));
    }

    private static byte[] Marker(int lineBreaks)
    {
        var marker = new byte[s_marker.Length + lineBreaks];
        s_marker.CopyTo(marker, 0);
        marker.AsSpan(s_marker.Length).Fill((byte)'\n');
        return marker;
    }
}
