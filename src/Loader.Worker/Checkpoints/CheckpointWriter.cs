using Loader.Worker.Backends;
using Loader.Worker.Outputs;
using Microsoft.Extensions.Logging;
using Polly;

namespace Loader.Worker.Checkpoints;

/// <summary>
/// Writes the load's checkpoint every interval while it runs; the final one is written by the pipeline when the load
/// ends. <paramref name="beforeWrite"/> stores what the checkpoint counts as settled first (the rejects), so a crash
/// between the two never leaves a checkpoint past rejects that were not kept. A write that fails is retried; when
/// none has landed for <see cref="LostAfter"/>, the load has lost the crash safety it was configured with, and
/// <see cref="Lost"/> fires so it stops rather than run on without it.
/// </summary>
internal sealed partial class CheckpointWriter(
    ICheckpointStore store,
    ResumePoint resume,
    RecordWatermark watermark,
    Func<CancellationToken, Task> beforeWrite,
    TimeSpan interval,
    TimeProvider timeProvider,
    ILogger<CheckpointWriter> logger) : IDisposable
{
    private readonly CancellationTokenSource _lost = new();
    private readonly ResiliencePipeline _retry = OutputWriteRetry.Create(timeProvider);
    private readonly long _started = timeProvider.GetTimestamp();
    private long _lastWritten;
    private string? _lastFailure;
    private long _written;
    private long _writingTicks;

    /// <summary>How long checkpoints may fail before the load stops: three intervals, at least ten seconds.</summary>
    public TimeSpan LostAfter { get; } = TimeSpan.FromTicks(Math.Max(3 * interval.Ticks, TimeSpan.FromSeconds(10).Ticks));

    /// <summary>Whether a checkpoint may be written on the interval yet: not while what it would vouch for is unproven.</summary>
    public Func<bool> Ready { get; init; } = static () => true;

    /// <summary>Fires when no checkpoint has been written for <see cref="LostAfter"/>.</summary>
    public CancellationToken Lost => _lost.Token;

    /// <summary>Why the last write failed, when it did.</summary>
    public string? LastFailure => Volatile.Read(ref _lastFailure);

    /// <summary>Time spent writing checkpoints so far (the rejects stored before each included).</summary>
    public TimeSpan Writing => TimeSpan.FromTicks(Interlocked.Read(ref _writingTicks));

    /// <summary>How long ago the last checkpoint was written; null before the first.</summary>
    public TimeSpan? SinceLastWritten => Interlocked.Read(ref _lastWritten) is var at and > 0 ? timeProvider.GetElapsedTime(at) : null;

    public async Task RunAsync(CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(interval, timeProvider);
        try
        {
            while (await timer.WaitForNextTickAsync(cancellationToken).ConfigureAwait(false))
            {
                if (Ready() && !await WriteAsync(completed: false, cancellationToken).ConfigureAwait(false)
                    && timeProvider.GetElapsedTime(Math.Max(Interlocked.Read(ref _lastWritten), _started)) > LostAfter)
                {
                    LogLost(LostAfter.TotalSeconds, LastFailure ?? "");
                    await _lost.CancelAsync().ConfigureAwait(false);
                    return;
                }
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The load ended; the pipeline writes the last checkpoint.
        }
    }

    /// <summary>Writes a checkpoint of where the load stands, retrying a failed write; false when it could not.</summary>
    /// <param name="completed">Whether the load reached the end of its input with nothing failed.</param>
    /// <param name="cancellationToken">Cancels storing it.</param>
    /// <param name="damage">Where the input was found damaged, when that stopped the load.</param>
    public async Task<bool> WriteAsync(bool completed, CancellationToken cancellationToken, InputDamage? damage = null)
    {
        var started = timeProvider.GetTimestamp();
        try
        {
            await _retry.ExecuteAsync(
                static async (state, token) => await state.Writer.WriteOnceAsync(state.Completed, state.Damage, token).ConfigureAwait(false),
                (Writer: this, Completed: completed, Damage: damage),
                cancellationToken).ConfigureAwait(false);
            var written = timeProvider.GetTimestamp();
            Interlocked.Exchange(ref _lastWritten, written);
            Interlocked.Increment(ref _written);
            Interlocked.Add(ref _writingTicks, timeProvider.GetElapsedTime(started, written).Ticks);
            return true;
        }
        catch (Exception exception) when (OutputWriteRetry.IsOutputFailure(exception))
        {
            Volatile.Write(ref _lastFailure, BackendErrors.Describe(exception));
            LogNotWritten(LastFailure!);
            return false;
        }
    }

    private async Task WriteOnceAsync(bool completed, InputDamage? damage, CancellationToken cancellationToken)
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
            Parts = resume.Parts,
            Prefix = position.Prefix,
            Settings = resume.Settings,
            Damage = damage,
        };
        await beforeWrite(cancellationToken).ConfigureAwait(false);
        await store.WriteAsync(checkpoint, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Logs what keeping the checkpoint cost: how many were written, and the time spent writing them against the load's.</summary>
    public void LogCost(TimeSpan load)
    {
        var count = Interlocked.Read(ref _written);
        var writing = TimeSpan.FromTicks(Interlocked.Read(ref _writingTicks));
        if (count > 0)
        {
            LogCheckpointCost(count, writing.TotalMilliseconds / count, writing.TotalSeconds, load > TimeSpan.Zero ? writing / load : 0);
        }
    }

    public void Dispose() => _lost.Dispose();

    [LoggerMessage(Level = LogLevel.Information, Message = "Checkpoints: {Count:N0} written, {Average:N1} ms each (the rejects stored before each included), {Seconds:N2} s in all, {Share:P2} of the load's time")]
    private partial void LogCheckpointCost(long count, double average, double seconds, double share);

    [LoggerMessage(Level = LogLevel.Warning, Message = "The checkpoint could not be written, even after retries: {Reason}")]
    private partial void LogNotWritten(string reason);

    [LoggerMessage(Level = LogLevel.Error, Message = "No checkpoint could be written for {Seconds} s ({Reason}): the load stops, as it no longer has the crash safety Loader:CheckpointPath asks for")]
    private partial void LogLost(double seconds, string reason);
}
