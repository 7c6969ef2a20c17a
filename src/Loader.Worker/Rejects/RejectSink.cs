using System.Text;
using Loader.Abstractions;
using Loader.Worker.Outputs;
using Loader.Worker.Reporting;
using Loader.Worker.Security;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Rejects;

/// <summary>
/// Where rows that cannot be written go: counted, logged (the first few), and appended to the rejects file, in the input's
/// own format so it can be fixed and loaded again (<see cref="IRejectLayout"/>: a CSV file in the input's columns and
/// delimiter, <see cref="RejectRows"/>, or JSON Lines, <see cref="JsonRejectRows"/>): each record as read, then the reason
/// (the loader's or the service's words, redacted) and where the row was first read.
/// When the rejects go to a blob they are written to a local file and published whole by <see cref="FlushAsync"/>. Once
/// more than the allowed number of rows is rejected, <see cref="LimitExceeded"/> fires so the load stops. Thread-safe.
/// </summary>
internal sealed partial class RejectSink : IDisposable
{
    private const int LoggedRejects = 10;

    private readonly Lock _lock = new();
    private readonly LoadStatistics _statistics;
    private readonly ILogger _logger;
    private readonly Redaction _redaction;
    private readonly long _maxRejects;
    private readonly IRejectLayout _rows;
    private readonly IRejectWriter? _writer;
    private readonly string? _path;
    private readonly OutputFile? _publishTo;
    private readonly CancellationTokenSource _limitExceeded = new();
    private long _count;

    /// <param name="path">The rejects file, or null for none.</param>
    /// <param name="maxRejects">Rejected rows allowed before <see cref="LimitExceeded"/> fires.</param>
    /// <param name="statistics">Where rejects are counted.</param>
    /// <param name="logger">Where the first rejects are logged.</param>
    /// <param name="redaction">What a reason goes through before it is written; the record is evidence and is written as it stood.</param>
    /// <param name="rows">How a record becomes a row of the file, in the input's format (for CSV its header and delimiter) and where its lines come from; when null, each record is kept as its text.</param>
    /// <param name="keepUpToLine">When resuming: the rejects of an earlier run up to this line of the input stay in the file, later ones (which this run meets again) are dropped.</param>
    /// <param name="publishTo">Where the file is published by <see cref="FlushAsync"/> (a blob), when <paramref name="path"/> is a local working copy.</param>
    public RejectSink(string? path, long maxRejects, LoadStatistics statistics, ILogger<RejectSink> logger, Redaction redaction, IRejectLayout? rows = null, long? keepUpToLine = null, OutputFile? publishTo = null)
    {
        _statistics = statistics;
        _logger = logger;
        _redaction = redaction;
        _maxRejects = maxRejects;
        _rows = rows ?? RejectRows.Unknown;
        _path = path;
        _publishTo = publishTo;
        if (!string.IsNullOrWhiteSpace(path))
        {
            Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(path))!);
            _writer = _rows.Create(path, keepUpToLine);
        }
    }

    /// <summary>Cancelled when more than the allowed number of rows has been rejected.</summary>
    public CancellationToken LimitExceeded => _limitExceeded.Token;

    public long Count => Interlocked.Read(ref _count);

    /// <summary>How messages name where a record of the input is, in its format's words: <c>line 12</c>, <c>row group 2, row 17</c>.</summary>
    public string Describe(RowOrigin origin) => _rows.Describe(origin);

    /// <summary>Rejects a record that was read whole but could not be written; <paramref name="recordText"/> is the record as it stood in the input.</summary>
    public void Reject(RowOrigin origin, string reason, string recordText) => Reject(origin, reason, recordText, split: true);

    /// <summary>
    /// Rejects a record that could not be split into the input's fields (its quoting is broken, it has too few or too many
    /// fields, the runaway-quote guard cut it out, or it holds bytes that are not text): kept as its text.
    /// </summary>
    public void RejectUnsplit(RowOrigin origin, string reason, string recordText) => Reject(origin, reason, recordText, split: false);

    private void Reject(RowOrigin origin, string reason, string recordText, bool split)
    {
        var row = _rows.Row(origin, _redaction.Redact(reason), recordText, split);
        long count;
        lock (_lock)
        {
            count = ++_count;

            // With no file, the reason reaches only the report and the log, which redact it themselves.
            _writer?.Write(row);
        }

        _statistics.Rejects.Add(row.Line, row.Place, reason, recordText, origin.Line);
        _statistics.RowsRejected(1);
        _statistics.LinesRejected(LinesOf(recordText));
        if (count <= LoggedRejects)
        {
            if (row.Line == origin.Line)
            {
                LogRejected(row.Place, reason);
            }
            else
            {
                LogRejectedAgain(row.Place, origin.Line, reason);
            }
        }
        else if (count == LoggedRejects + 1)
        {
            LogMoreRejects(LoggedRejects);
        }

        if (count > _maxRejects && !_limitExceeded.IsCancellationRequested)
        {
            LogLimitExceeded(_maxRejects);
            _limitExceeded.Cancel();
        }
    }

    /// <summary>Lines a record's text spans: its line breaks inside, plus its own line.</summary>
    private static long LinesOf(string recordText)
    {
        var text = recordText.AsSpan().TrimEnd("\r\n");
        long breaks = 0;
        for (var i = 0; i < text.Length; i++)
        {
            if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.Length || text[i + 1] != '\n')))
            {
                breaks++;
            }
        }

        return breaks + 1;
    }

    /// <summary>
    /// Rejects a mapped row (a duplicate, or one the service refused): as it stood in the input, or, for a typed input whose
    /// rows keep no text (Parquet), as the JSON object of its properties.
    /// </summary>
    public void Reject(LoadEntity entity, string reason) =>
        Reject(entity.Origin, reason, entity.SourceRecord.IsEmpty ? EntityRecordJson.Of(entity) : Encoding.UTF8.GetString(entity.SourceRecord.Span));

    /// <summary>Puts every reject so far into the file (and publishes it, when it goes to a blob): before a checkpoint counts them as settled.</summary>
    public async Task FlushAsync(CancellationToken cancellationToken)
    {
        lock (_lock)
        {
            _writer?.Flush();
        }

        if (_publishTo is not null && _path is not null)
        {
            var content = await File.ReadAllBytesAsync(_path, cancellationToken).ConfigureAwait(false);
            await _publishTo.WriteAsync(new BinaryData(content), _rows.ContentType, cancellationToken).ConfigureAwait(false);
        }
    }

    public void Dispose()
    {
        lock (_lock)
        {
            _writer?.Dispose();
        }

        _limitExceeded.Dispose();
    }

    [LoggerMessage(Level = LogLevel.Warning, Message = "Rejected {Place}: {Reason}")]
    private partial void LogRejected(string place, string reason);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Rejected {Place} (line {InputLine} of this input, a rejects file): {Reason}")]
    private partial void LogRejectedAgain(string place, long inputLine, string reason);

    [LoggerMessage(Level = LogLevel.Warning, Message = "More rows rejected; only the first {Logged} are logged, all are in the rejects file and the report")]
    private partial void LogMoreRejects(int logged);

    [LoggerMessage(Level = LogLevel.Error, Message = "More than {MaxRejects} rows rejected (Loader:MaxRejects): stopping the load")]
    private partial void LogLimitExceeded(long maxRejects);
}
