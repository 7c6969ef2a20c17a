using Microsoft.Extensions.Logging;

namespace Loader.Worker.Reporting;

/// <summary>Logs a progress line every interval while a load runs.</summary>
public sealed partial class ProgressReporter(LoadStatistics statistics, TimeProvider timeProvider, ILogger<ProgressReporter> logger)
{
    public async Task RunAsync(TimeSpan interval, CancellationToken cancellationToken)
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
                LogProgress(now.RowsRead, now.RowsWritten, rate, now.RowsRejected, now.RowsFailed, now.InFlight, now.Throttled);
                previous = now;
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The load ended.
        }
    }

    [LoggerMessage(Level = LogLevel.Information,
        Message = "Progress: {RowsRead:N0} rows read, {RowsWritten:N0} written ({RowsPerSecond:N0} rows/s), {RowsRejected:N0} rejected, {RowsFailed:N0} failed, {InFlight} batches in flight, {Throttled:N0} throttled")]
    private partial void LogProgress(long rowsRead, long rowsWritten, double rowsPerSecond, long rowsRejected, long rowsFailed, long inFlight, long throttled);
}
