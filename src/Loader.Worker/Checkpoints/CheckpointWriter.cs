using Microsoft.Extensions.Logging;

namespace Loader.Worker.Checkpoints;

/// <summary>
/// Writes the load's checkpoint every interval while it runs; the final one is written by the pipeline when the load
/// ends. <paramref name="beforeWrite"/> stores what the checkpoint counts as settled first (the rejects), so a crash
/// between the two never leaves a checkpoint past rejects that were not kept.
/// </summary>
public sealed partial class CheckpointWriter(
    ICheckpointStore store,
    ResumePoint resume,
    RecordWatermark watermark,
    Func<CancellationToken, Task> beforeWrite,
    TimeProvider timeProvider,
    ILogger<CheckpointWriter> logger)
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
        // Read before the rejects are stored: everything this checkpoint counts as settled is then in them.
        var position = watermark.Snapshot();
        var checkpoint = new Checkpoint
        {
            NextRecord = position.NextRecord,
            ReadUpTo = position.ReadUpTo,
            ReadUpToLine = position.ReadUpToLine,
            Pending = position.Pending,
            HighestSent = Math.Max(watermark.HighestSent, resume.HighestSentBefore),
            Completed = completed,
            UpdatedAt = timeProvider.GetUtcNow(),
            Input = resume.Input,
            Settings = resume.Settings,
        };
        try
        {
            await beforeWrite(cancellationToken).ConfigureAwait(false);
            await store.WriteAsync(checkpoint, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or Azure.RequestFailedException or Azure.Identity.AuthenticationFailedException)
        {
            // A missed checkpoint costs rewriting some rows after a crash, not the load.
            LogNotWritten(Pipeline.BackendErrors.Describe(exception));
        }
    }

    [LoggerMessage(Level = LogLevel.Warning, Message = "The checkpoint could not be written: {Reason}")]
    private partial void LogNotWritten(string reason);
}
