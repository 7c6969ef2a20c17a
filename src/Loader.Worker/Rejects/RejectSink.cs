using System.Globalization;
using System.Text;
using CsvHelper;
using Loader.Abstractions;
using Loader.Worker.Inputs;
using Loader.Worker.Outputs;
using Loader.Worker.Reporting;
using Loader.Worker.Security;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Rejects;

/// <summary>
/// Where rows that cannot be written go: counted, logged (the first few), and appended to the rejects file
/// as <c>line,reason,record</c>, the record as it stood in the input (the reason, the loader's or the service's words, redacted); for an input of several files two more
/// columns, <c>file,fileLine</c>, say where the row is in its own file. When the rejects go to a blob they are
/// written to a local file and published whole by <see cref="FlushAsync"/>. Once more than the allowed number of
/// rows is rejected, <see cref="LimitExceeded"/> fires so the load stops. Thread-safe.
/// </summary>
internal sealed partial class RejectSink : IDisposable
{
    private const int LoggedRejects = 10;

    private readonly Lock _lock = new();
    private readonly LoadStatistics _statistics;
    private readonly ILogger _logger;
    private readonly Redaction _redaction;
    private readonly long _maxRejects;
    private readonly CsvWriter? _writer;
    private readonly string? _path;
    private readonly OutputFile? _publishTo;
    private readonly InputLineMap? _lines;
    private readonly CancellationTokenSource _limitExceeded = new();
    private long _count;

    /// <param name="path">The rejects file, or null for none.</param>
    /// <param name="maxRejects">Rejected rows allowed before <see cref="LimitExceeded"/> fires.</param>
    /// <param name="statistics">Where rejects are counted.</param>
    /// <param name="logger">Where the first rejects are logged.</param>
    /// <param name="redaction">What a reason goes through before it is written; the record is evidence and is written as it stood.</param>
    /// <param name="keepUpToLine">When resuming: the rejects of an earlier run up to this line stay in the file, later ones (which this run meets again) are dropped.</param>
    /// <param name="lines">Where each line of the input comes from, for an input of several files.</param>
    /// <param name="publishTo">Where the file is published by <see cref="FlushAsync"/> (a blob), when <paramref name="path"/> is a local working copy.</param>
    public RejectSink(string? path, long maxRejects, LoadStatistics statistics, ILogger<RejectSink> logger, Redaction redaction, long? keepUpToLine = null, InputLineMap? lines = null, OutputFile? publishTo = null)
    {
        _statistics = statistics;
        _logger = logger;
        _redaction = redaction;
        _maxRejects = maxRejects;
        _path = path;
        _publishTo = publishTo;
        _lines = lines is { HasSeveralParts: true } ? lines : null;
        if (!string.IsNullOrWhiteSpace(path))
        {
            Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(path))!);
            var kept = keepUpToLine is { } line && File.Exists(path) ? EarlierRejects(path, line) : [];

            // Rejects are evidence: written as they were, no formula escaping.
            _writer = CsvWriter.ToFile(path, CsvWriterOptions.Default with { Injection = CsvInjection.None, NewLine = "\n" });
            _writer.WriteHeader(_lines is null ? ["line", "reason", "record"] : ["line", "reason", "record", "file", "fileLine"]);
            foreach (var reject in kept)
            {
                _writer.WriteRecord(reject);
            }
        }
    }

    /// <summary>The rows of an earlier run's rejects file up to <paramref name="line"/>.</summary>
    private static List<string[]> EarlierRejects(string path, long line)
    {
        var kept = new List<string[]>();
        using var reader = CsvReader.FromFile(path, CsvReaderOptions.Default with { Separator = ',', HasHeader = true });
        while (reader.Read())
        {
            if (long.TryParse(reader.GetString(0), NumberStyles.None, CultureInfo.InvariantCulture, out var rejectLine) && rejectLine <= line)
            {
                kept.Add([.. Enumerable.Range(0, reader.FieldCount).Select(reader.GetString)]);
            }
        }

        return kept;
    }

    /// <summary>Cancelled when more than the allowed number of rows has been rejected.</summary>
    public CancellationToken LimitExceeded => _limitExceeded.Token;

    public long Count => Interlocked.Read(ref _count);

    /// <summary>Rejects a row that was read but could not be mapped; <paramref name="recordText"/> is the record as it stood in the input.</summary>
    public void Reject(RowOrigin origin, string reason, string recordText)
    {
        long count;
        lock (_lock)
        {
            count = ++_count;
            var line = origin.Line.ToString(CultureInfo.InvariantCulture);
            if (_writer is null)
            {
                // No file: the reason reaches only the report and the log, which redact it themselves.
            }
            else if (_lines?.Locate(origin.Line) is { } located)
            {
                _writer.WriteRecord([line, _redaction.Redact(reason), recordText, located.Part, located.Line.ToString(CultureInfo.InvariantCulture)]);
            }
            else
            {
                _writer.WriteRecord([line, _redaction.Redact(reason), recordText]);
            }
        }

        _statistics.Rejects.Add(origin.Line, reason, recordText);
        _statistics.RowsRejected(1);
        _statistics.LinesRejected(LinesOf(recordText));
        if (count <= LoggedRejects)
        {
            LogRejected(origin.Line, reason);
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

    /// <summary>Rejects a mapped row (a duplicate, or one the service refused).</summary>
    public void Reject(LoadEntity entity, string reason) =>
        Reject(entity.Origin, reason, Encoding.UTF8.GetString(entity.SourceRecord.Span));

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
            await _publishTo.WriteAsync(new BinaryData(content), "text/csv", cancellationToken).ConfigureAwait(false);
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

    [LoggerMessage(Level = LogLevel.Warning, Message = "Rejected line {Line}: {Reason}")]
    private partial void LogRejected(long line, string reason);

    [LoggerMessage(Level = LogLevel.Warning, Message = "More rows rejected; only the first {Logged} are logged, all are in the rejects file and the report")]
    private partial void LogMoreRejects(int logged);

    [LoggerMessage(Level = LogLevel.Error, Message = "More than {MaxRejects} rows rejected (Loader:MaxRejects): stopping the load")]
    private partial void LogLimitExceeded(long maxRejects);
}
