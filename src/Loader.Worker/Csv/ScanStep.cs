namespace Loader.Worker.Csv;

/// <summary>What <see cref="QuoteScanner.Step"/> found, for its caller to act on.</summary>
internal enum ScanStep
{
    /// <summary>Everything held is scanned, or the byte after the last is needed: hold more, or finish at the end of the input.</summary>
    More,

    /// <summary>A record starts at <see cref="QuoteScanner.RecordStart"/>: the bytes before it may go to the parser.</summary>
    RecordStart,

    /// <summary>
    /// <see cref="QuoteScanner.Rejection"/> says which bytes are rejected and why: replace them, then
    /// <see cref="QuoteScanner.Restart"/> the scanner after the replacement.
    /// </summary>
    Rejected,

    /// <summary>
    /// A line too long to hold: take out every byte held from <see cref="QuoteScanner.Position"/> on. Its line break, when
    /// it comes, ends a <see cref="Rejected"/> step of <see cref="RejectReason.LineTooLong"/>.
    /// </summary>
    Drop,
}

/// <summary>Why the scanner rejects bytes.</summary>
internal enum RejectReason
{
    /// <summary>A quote that opened no field: it never closes before the end of the input.</summary>
    QuoteNeverCloses,

    /// <summary>A quote that opened no field: still open after <c>Loader:Csv:MaxLinesInQuotes</c> lines.</summary>
    QuoteOpenPastLines,

    /// <summary>A quote that opened no field: still open after <c>Loader:Csv:MaxRecordBytes</c> bytes.</summary>
    QuoteOpenPastBytes,

    /// <summary>A quote that opened no field: closed on a later line by a quote followed by text.</summary>
    QuoteClosedByText,

    /// <summary>A record of one line or several, longer than <c>Loader:Csv:MaxRecordBytes</c>, held whole.</summary>
    RecordTooLong,

    /// <summary>A line longer than <c>Loader:Csv:MaxRecordBytes</c>, dropped as it was read (<see cref="ScanStep.Drop"/>).</summary>
    LineTooLong,
}

/// <summary>Bytes the scanner rejects: the lines of one record, or of a quote that opened no field.</summary>
/// <param name="Start">Where the bytes to replace start.</param>
/// <param name="End">Where they end (after a line break, when they have one).</param>
/// <param name="TextEnd">Where their text ends: <paramref name="End"/>, or before the line break of a line dropped.</param>
/// <param name="FirstLine">The line they start on.</param>
/// <param name="LastLine">The last line they hold.</param>
/// <param name="LineBreaks">The line breaks they held, those of dropped bytes included: the replacement keeps as many, so later lines keep their numbers.</param>
/// <param name="EndsMidLine">The input ended inside them, on a line without a line break.</param>
/// <param name="Reason">Why.</param>
/// <param name="QuoteLine">For a quote that opened no field, the line it opened on.</param>
/// <param name="Line">The line the scan stood on when it rejected them (where such a quote closed).</param>
internal readonly record struct Rejection(
    long Start, long End, long TextEnd, long FirstLine, long LastLine, int LineBreaks, bool EndsMidLine, RejectReason Reason, long QuoteLine, long Line);
