using System.Globalization;
using System.Text;
using CsvHelper;
using Loader.Abstractions;
using Loader.Worker.Reporting;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Rejects;

/// <summary>
/// Where rows that cannot be written go: counted, logged (the first few), and appended to the rejects file
/// as <c>line,reason,record</c>, the record as it stood in the input. Once more than the allowed number of
/// rows is rejected, <see cref="LimitExceeded"/> fires so the load stops. Thread-safe.
/// </summary>
public sealed partial class RejectSink : IDisposable
{
    private const int LoggedRejects = 10;

    private readonly Lock _lock = new();
    private readonly LoadStatistics _statistics;
    private readonly ILogger _logger;
    private readonly long _maxRejects;
    private readonly CsvWriter? _writer;
    private readonly CancellationTokenSource _limitExceeded = new();
    private long _count;

    /// <param name="path">The rejects file, or null for none.</param>
    /// <param name="maxRejects">Rejected rows allowed before <see cref="LimitExceeded"/> fires.</param>
    /// <param name="statistics">Where rejects are counted.</param>
    /// <param name="logger">Where the first rejects are logged.</param>
    /// <param name="keepUpToLine">When resuming: the rejects of an earlier run up to this line stay in the file, later ones (which this run meets again) are dropped.</param>
    public RejectSink(string? path, long maxRejects, LoadStatistics statistics, ILogger<RejectSink> logger, long? keepUpToLine = null)
    {
        _statistics = statistics;
        _logger = logger;
        _maxRejects = maxRejects;
        if (!string.IsNullOrWhiteSpace(path))
        {
            Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(path))!);
            var kept = keepUpToLine is { } line && File.Exists(path) ? EarlierRejects(path, line) : [];

            // Rejects are evidence: written as they were, no formula escaping.
            _writer = CsvWriter.ToFile(path, CsvWriterOptions.Default with { Injection = CsvInjection.None, NewLine = "\n" });
            _writer.WriteHeader(["line", "reason", "record"]);
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
                kept.Add([reader.GetString(0), reader.GetString(1), reader.GetString(2)]);
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
            _writer?.WriteRecord([origin.Line.ToString(CultureInfo.InvariantCulture), reason, recordText]);
        }

        _statistics.RowsRejected(1);
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

    /// <summary>Rejects a mapped row (a duplicate, or one the service refused).</summary>
    public void Reject(LoadEntity entity, string reason) =>
        Reject(entity.Origin, reason, Encoding.UTF8.GetString(entity.SourceRecord.Span));

    public void Flush()
    {
        lock (_lock)
        {
            _writer?.Flush();
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
