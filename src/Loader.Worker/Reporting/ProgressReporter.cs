using Microsoft.Extensions.Logging;

namespace Loader.Worker.Reporting;

/// <summary>Logs a progress line every interval while a load runs.</summary>
public sealed partial class ProgressReporter(LoadStatistics statistics, TimeProvider timeProvider, ILogger<ProgressReporter> logger)
{
    /// <summary>Logs a line and keeps a timeline sample every <paramref name="interval"/>; <paramref name="pace"/> tells the concurrency limit and request-unit rate at the time.</summary>
    public async Task RunAsync(TimeSpan interval, Func<(int Concurrency, double? RequestUnitsPerSecond)> pace, CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(interval, timeProvider);
        var previous = statistics.Snapshot();
        try
        {
            while (await timer.WaitForNextTickAsync(cancellationToken).ConfigureAwait(false))
            {
                var now = statistics.Snapshot();
                var seconds = (now.Elapsed - previous.Elapsed).TotalSeconds;
                var rate = seconds > 0 ? (now.RowsWritten - previous.RowsWritten) / seconds : 0;
                var (concurrency, paced) = pace();
                LogProgress(now.RowsRead, now.RowsWritten, rate, now.RowsRejected, now.RowsFailed, now.RowsRead - now.RowsSettled, now.InFlight, concurrency, now.Throttled);
                statistics.AddSample(Sample(now, concurrency, paced));
                previous = now;
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The load ended.
        }
    }

    internal static ProgressSample Sample(LoadCounts counts, int concurrency, double? paced) => new(
        Math.Round(counts.Elapsed.TotalSeconds, 2), counts.RowsWritten, counts.Requests, counts.Throttled, Math.Round(counts.RequestCharge ?? 0, 1), concurrency, paced is { } rate ? Math.Round(rate, 1) : null);

    [LoggerMessage(Level = LogLevel.Information,
        Message = "Progress: {RowsRead:N0} rows read, {RowsWritten:N0} written ({RowsPerSecond:N0} rows/s), {RowsRejected:N0} rejected, {RowsFailed:N0} failed, {RowsPending:N0} waiting in batches, {InFlight}/{Concurrency} batches in flight, {Throttled:N0} throttled")]
    private partial void LogProgress(long rowsRead, long rowsWritten, double rowsPerSecond, long rowsRejected, long rowsFailed, long rowsPending, long inFlight, int concurrency, long throttled);
}
