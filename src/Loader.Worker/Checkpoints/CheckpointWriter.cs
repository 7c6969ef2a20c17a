using Microsoft.Extensions.Logging;

namespace Loader.Worker.Checkpoints;

/// <summary>Writes the load's checkpoint every interval while it runs; the final one is written by the pipeline when the load ends.</summary>
public sealed partial class CheckpointWriter(ICheckpointStore store, ResumePoint resume, RecordWatermark watermark, TimeProvider timeProvider, ILogger<CheckpointWriter> logger)
{
    public async Task RunAsync(TimeSpan interval, CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(interval, timeProvider);
        try
        {
            while (await timer.WaitForNextTickAsync(cancellationToken).ConfigureAwait(false))
            {
                await WriteAsync(completed: false, cancellationToken).ConfigureAwait(false);
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The load ended; the pipeline writes the last checkpoint.
        }
    }

    public async Task WriteAsync(bool completed, CancellationToken cancellationToken)
    {
        var checkpoint = new Checkpoint
        {
            NextRecord = watermark.Current,
            HighestSent = Math.Max(watermark.HighestSent, resume.HighestSentBefore),
            Completed = completed,
            UpdatedAt = timeProvider.GetUtcNow(),
            Input = resume.Input,
            Settings = resume.Settings,
        };
        try
        {
            await store.WriteAsync(checkpoint, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            // A missed checkpoint costs rewriting some rows after a crash, not the load.
            LogNotWritten(exception.Message);
        }
    }

    [LoggerMessage(Level = LogLevel.Warning, Message = "The checkpoint could not be written: {Reason}")]
    private partial void LogNotWritten(string reason);
}
