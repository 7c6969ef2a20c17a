using Loader.Worker.Inputs;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Reporting;

/// <summary>
/// Logs a progress line every interval while a load runs: rows, and how much of the input is read with the time the
/// rest takes at the pace so far, in bytes as stored (compressed bytes of a compressed input).
/// </summary>
internal sealed partial class ProgressReporter(LoadStatistics statistics, TimeProvider timeProvider, ILogger<ProgressReporter> logger, InputProgress? input = null)
{
    /// <summary>Logs a line and keeps a timeline sample every interval.</summary>
    /// <param name="interval">How often.</param>
    /// <param name="pace">The concurrency limit and request-unit rate at the time.</param>
    /// <param name="sinceCheckpoint">How long ago the last checkpoint was written (null before the first); null when the load keeps none.</param>
    /// <param name="cancellationToken">Ends it, with the load.</param>
    public async Task RunAsync(TimeSpan interval, Func<(int Concurrency, double? RequestUnitsPerSecond)> pace, Func<TimeSpan?>? sinceCheckpoint, CancellationToken cancellationToken)
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
                var checkpoint = CheckpointAge(sinceCheckpoint);
                LogProgress(now.RowsRead, now.RowsWritten, rate, now.RowsRejected, now.RowsFailed, now.RowsRead - now.RowsSettled, now.InFlight, concurrency, now.Throttled, checkpoint);
                if (input is not null)
                {
                    var left = input.Remaining(now.Elapsed) is { } remaining ? remaining.ToString(@"hh\:mm\:ss", System.Globalization.CultureInfo.InvariantCulture) : "unknown";
                    var percent = Math.Round(input.Fraction * 100, 1);
                    var bytesRead = input.BytesRead;
                    LogInput(percent, bytesRead, input.Length, left);
                }

                statistics.AddSample(Sample(now, concurrency, paced));
                previous = now;
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The load ended.
        }
    }

    private static string CheckpointAge(Func<TimeSpan?>? sinceCheckpoint) => sinceCheckpoint is null
        ? "no checkpoints"
        : sinceCheckpoint() is { } age ? string.Create(System.Globalization.CultureInfo.InvariantCulture, $"last checkpoint {age.TotalSeconds:0} s ago") : "no checkpoint yet";

    internal static ProgressSample Sample(LoadCounts counts, int concurrency, double? paced) => new(
        Math.Round(counts.Elapsed.TotalSeconds, 2), counts.RowsWritten, counts.Requests, counts.Throttled, Math.Round(counts.RequestCharge ?? 0, 1), concurrency, paced is { } rate ? Math.Round(rate, 1) : null, counts.InFlight);

    [LoggerMessage(Level = LogLevel.Information,
        Message = "Progress: {RowsRead:N0} rows read, {RowsWritten:N0} written ({RowsPerSecond:N0} rows/s), {RowsRejected:N0} rejected, {RowsFailed:N0} failed, {RowsPending:N0} waiting in batches, {InFlight}/{Concurrency} batches in flight, {Throttled:N0} throttled, {Checkpoint}")]
    private partial void LogProgress(long rowsRead, long rowsWritten, double rowsPerSecond, long rowsRejected, long rowsFailed, long rowsPending, long inFlight, int concurrency, long throttled, string checkpoint);

    [LoggerMessage(Level = LogLevel.Information, Message = "Progress: {InputPercent}% of the input read ({InputBytesRead:N0} of {InputBytes:N0} bytes as stored), about {InputTimeLeft} left at this pace")]
    private partial void LogInput(double inputPercent, long inputBytesRead, long inputBytes, string inputTimeLeft);
}
