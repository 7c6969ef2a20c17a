using System.Collections.Concurrent;
using System.Globalization;
using System.Text;

namespace Loader.Worker.Csv;

/// <summary>
/// The lines the runaway-quote guard rejected, each with its text as it stood in the input and the reason worded for
/// the rejects file, until the reader that meets its marker takes it.
/// </summary>
internal sealed class RejectedLines(int maxLinesInQuotes, int maxRecordBytes)
{
    /// <summary>How much of a record too long to hold is kept for the rejects file.</summary>
    public const int KeptTextBytes = 4096;

    private readonly ConcurrentDictionary<long, RejectedSpan> _spans = new();

    // The start of a line too long to hold, kept as its bytes are dropped.
    private readonly byte[] _dropped = new byte[KeptTextBytes];
    private int _droppedLength;

    /// <summary>The lines rejected from <paramref name="line"/> on, with their text and why; each is taken once.</summary>
    public bool TryTake(long line, out RejectedSpan span) => _spans.TryRemove(line, out span!);

    /// <summary>Keeps what fits of bytes dropped from a line too long to hold, for its text.</summary>
    public void Dropped(ReadOnlySpan<byte> bytes)
    {
        var kept = Math.Min(KeptTextBytes - _droppedLength, bytes.Length);
        bytes[..kept].CopyTo(_dropped.AsSpan(_droppedLength));
        _droppedLength += kept;
    }

    /// <summary>Records a rejection; <paramref name="text"/> is its bytes (for a line dropped, the last of them).</summary>
    public void Add(in Rejection rejection, ReadOnlySpan<byte> text) =>
        _spans[rejection.FirstLine] = new RejectedSpan(rejection.FirstLine, rejection.LastLine, Text(rejection.Reason, text), Reason(rejection));

    private string Text(RejectReason reason, ReadOnlySpan<byte> text)
    {
        if (reason == RejectReason.LineTooLong)
        {
            Dropped(text);
            var dropped = Encoding.UTF8.GetString(_dropped, 0, _droppedLength) + "…";
            _droppedLength = 0;
            return dropped;
        }

        return reason == RejectReason.RecordTooLong && text.Length > KeptTextBytes
            ? Encoding.UTF8.GetString(text[..KeptTextBytes]) + "…"
            : Encoding.UTF8.GetString(text);
    }

    private string Reason(in Rejection rejection) => rejection.Reason switch
    {
        RejectReason.QuoteNeverCloses => Opening(string.Create(CultureInfo.InvariantCulture, $"a quote opened on line {rejection.QuoteLine} never closes before the end of the input")),
        RejectReason.QuoteOpenPastLines => Opening(string.Create(CultureInfo.InvariantCulture, $"a quote opened on line {rejection.QuoteLine} does not close within {maxLinesInQuotes:N0} lines (Loader:Csv:MaxLinesInQuotes)")),
        RejectReason.QuoteOpenPastBytes => Opening(string.Create(CultureInfo.InvariantCulture, $"a quote opened on line {rejection.QuoteLine} does not close within {Size(maxRecordBytes)} (Loader:Csv:MaxRecordBytes)")),
        RejectReason.QuoteClosedByText => Opening(string.Create(CultureInfo.InvariantCulture, $"a quote opened on line {rejection.QuoteLine} is closed only on line {rejection.Line}, by a quote followed by text")),
        _ => TooLong(rejection.FirstLine, rejection.LastLine),
    };

    private static string Opening(string problem) => $"malformed quoting: {problem}; the record up to that line is rejected and reading goes on after it";

    private string TooLong(long firstLine, long lastLine) => firstLine == lastLine
        ? string.Create(CultureInfo.InvariantCulture, $"line {firstLine} is longer than {Size(maxRecordBytes)} (Loader:Csv:MaxRecordBytes), more than any entity can hold; its first {KeptTextBytes:N0} bytes are kept here")
        : string.Create(CultureInfo.InvariantCulture, $"the record on lines {firstLine} to {lastLine} is longer than {Size(maxRecordBytes)} (Loader:Csv:MaxRecordBytes), more than any entity can hold; its first {KeptTextBytes:N0} bytes are kept here");

    private static string Size(int bytes) => bytes % (1024 * 1024) == 0
        ? string.Create(CultureInfo.InvariantCulture, $"{bytes / (1024 * 1024)} MiB")
        : string.Create(CultureInfo.InvariantCulture, $"{bytes:N0} bytes");
}

/// <summary>Lines the guard rejected, with their text as they stood in the input and why.</summary>
internal sealed record RejectedSpan(long FirstLine, long LastLine, string Text, string Reason);
