using System.Globalization;
using Azure;
using Loader.Worker.Backends;
using Loader.Worker.Configuration;
using Loader.Worker.Outputs;
using Loader.Worker.Pipeline;
using Loader.Worker.Reporting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Shards.Work;

/// <summary>
/// <c>work</c>: takes shards from the queue and loads each (<see cref="ShardRun"/>) until the queue is empty — no message
/// visible and none hidden, so a shard whose worker died is waited for until it shows again and is taken over. A shard
/// is settled only when its run completed; then its message is deleted. A failed run puts the message back after
/// <c>Loader:Shards:RetryDelay</c>; a message taken <c>Loader:Shards:MaxDequeues</c> times without being settled goes to
/// the poison queue. Duplicate messages (a plan stopped halfway and run again) are told apart by the shard's state.
/// </summary>
internal sealed partial class ShardWorker(
    IOptions<LoaderOptions> options,
    ShardedLoadFactory loads,
    ShardRun run,
    ExitCodeOf exitCodeOf,
    TimeProvider timeProvider,
    ILogger<ShardWorker> logger)
{
    private readonly string _worker = $"{Environment.MachineName}/{Environment.ProcessId}";

    public async Task<CommandResult> RunAsync(CancellationToken stopping)
    {
        var settings = options.Value;
        if (OutputLocationCheck.OfShardedLoad(settings) is { Count: > 0 } conflicts)
        {
            return new CommandResult(LoadOutcomeKind.InvalidConfiguration, OutputLocationCheck.Describe(conflicts, "No shard was taken: give the state folder a place of its own, away from the input."));
        }

        var shards = settings.Shards;
        var load = loads.Create(settings.Shards);
        var manifest = await load.Store.ReadManifestAsync(stopping).ConfigureAwait(false);
        if (manifest is null)
        {
            return new CommandResult(LoadOutcomeKind.InvalidConfiguration, $"No load is planned in {load.Store.Display}: run plan with the same settings first.");
        }

        if (Checkpoints.LoadIdentity.Mismatch(manifest.InputIdentity, manifest.Settings, manifest.InputIdentity, ShardedLoad.Identity(settings), "the load was planned") is { } mismatch)
        {
            return new CommandResult(LoadOutcomeKind.InvalidConfiguration, $"The load planned in {load.Store.Display} is not this one: {mismatch}.");
        }

        LogStarting(_worker, manifest.LoadId, manifest.Shards.Count, load.Queue.Display);
        var tally = new WorkTally(timeProvider);
        while (!stopping.IsCancellationRequested)
        {
            var message = await ReceiveAsync(load, stopping).ConfigureAwait(false);
            if (message is null)
            {
                if (stopping.IsCancellationRequested || await load.Queue.CountAsync(stopping).ConfigureAwait(false) == 0)
                {
                    break;
                }

                // Every shard left is hidden: held by another worker, or by one that died and shows again at its visibility timeout.
                await DelayAsync(shards.PollInterval, stopping).ConfigureAwait(false);
                continue;
            }

            tally.Add(await HandleAsync(load, manifest, message, stopping).ConfigureAwait(false));
        }

        return tally.Result(_worker, stopping.IsCancellationRequested);
    }

    private async Task<ReceivedShard?> ReceiveAsync(ShardedLoad load, CancellationToken stopping)
    {
        try
        {
            return await load.Queue.ReceiveAsync(options.Value.Shards.VisibilityTimeout, stopping).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (stopping.IsCancellationRequested)
        {
            return null;
        }
    }

    private async Task DelayAsync(TimeSpan delay, CancellationToken stopping)
    {
        try
        {
            await Task.Delay(delay, timeProvider, stopping).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (stopping.IsCancellationRequested)
        {
            // Stop requested while idle: nothing held, nothing to give back.
        }
    }

    private async Task<ShardResult> HandleAsync(ShardedLoad load, LoadManifest manifest, ReceivedShard message, CancellationToken stopping)
    {
        var shards = options.Value.Shards;
        var spec = message.Message is { } named && named.LoadId == manifest.LoadId ? manifest.Shards.FirstOrDefault(shard => shard.Id == named.Shard) : null;
        if (spec is null)
        {
            // Not this load's: another program's message, or one of a load planned elsewhere with this queue. Kept for a person to look at.
            LogForeignMessage(message.MessageId, message.Text.Length > 200 ? message.Text[..200] : message.Text, load.Queue.PoisonDisplay);
            await load.Queue.PoisonAsync(message, CancellationToken.None).ConfigureAwait(false);
            return ShardResult.Skipped;
        }

        var stored = await load.Store.ReadStateAsync(spec.Id, CancellationToken.None).ConfigureAwait(false);
        if (stored.State is { Status: ShardStatus.Done or ShardStatus.Poisoned } settled)
        {
            LogAlreadySettled(spec.Id, settled.Status, message.MessageId);
            await load.Queue.DeleteAsync(message, CancellationToken.None).ConfigureAwait(false);
            return ShardResult.Skipped;
        }

        if (message.DequeueCount > shards.MaxDequeues && !stored.Leased)
        {
            return await PoisonAsync(load, spec, stored, message, leaseId: null,
                string.Create(CultureInfo.InvariantCulture, $"taken {message.DequeueCount - 1} times without being settled (Loader:Shards:MaxDequeues {shards.MaxDequeues})")).ConfigureAwait(false);
        }

        if (stored.State is null)
        {
            // A plan stopped between sending the message and creating the state: the state is made now, so it can be leased.
            await load.Store.TryCreateStateAsync(NewState(manifest, spec), CancellationToken.None).ConfigureAwait(false);
        }

        await using var hold = await ShardHold.TryTakeAsync(load.Store.LeaseOf(spec.Id), load.Queue, message, shards.VisibilityTimeout, timeProvider, logger, CancellationToken.None).ConfigureAwait(false);
        if (hold is null)
        {
            return await OnHeldElsewhereAsync(load, spec, message).ConfigureAwait(false);
        }

        // Read again under the lease: the state as the last holder left it.
        stored = await load.Store.ReadStateAsync(spec.Id, CancellationToken.None).ConfigureAwait(false);
        var state = stored.State ?? NewState(manifest, spec);
        if (state.Status is ShardStatus.Done or ShardStatus.Poisoned)
        {
            await load.Queue.DeleteAsync(message, CancellationToken.None).ConfigureAwait(false);
            await hold.ReleaseAsync().ConfigureAwait(false);
            return ShardResult.Skipped;
        }

        var started = timeProvider.GetUtcNow();
        state = state with
        {
            Status = ShardStatus.Running,
            MessageId = message.MessageId,
            Attempts = state.Attempts + 1,
            Worker = _worker,
            FirstStartedAt = state.FirstStartedAt ?? started,
            StartedAt = started,
            FinishedAt = null,
            UpdatedAt = started,
        };
        await load.Store.WriteStateAsync(state, hold.LeaseId, null, CancellationToken.None).ConfigureAwait(false);
        var what = spec.Describe();
        LogShardStarting(spec.Id, what, state.Attempts, message.DequeueCount);

        LoadResult? result = null;
        Exception? crash = null;
        try
        {
            result = await run.RunAsync(manifest, spec, load.Store, stopping, hold.Lost).ConfigureAwait(false);
        }
        catch (Exception exception) when (!hold.Lost.IsCancellationRequested)
        {
            crash = exception;
        }
        catch (Exception) when (hold.Lost.IsCancellationRequested)
        {
            // Cut off because the lease was lost: said below.
        }

        if (hold.Lost.IsCancellationRequested)
        {
            // Another worker may hold the shard now: its state, message and lease are no longer this worker's to touch.
            LogShardTakenOver(spec.Id);
            return ShardResult.TakenOver;
        }

        if (result is null)
        {
            LogShardCrashed(spec.Id, crash!);
            return await FailedAsync(load, spec, state, message, hold, LoadOutcome.FailedName, exitCodeOf(LoadOutcomeKind.UnexpectedError), BackendErrors.Describe(crash!)).ConfigureAwait(false);
        }

        var report = result.Report;
        await hold.StopRenewingAsync().ConfigureAwait(false);
        if (result.Outcome.Kind == LoadOutcomeKind.Completed)
        {
            var finished = timeProvider.GetUtcNow();
            await load.Store.WriteStateAsync(
                state with { Status = ShardStatus.Done, FinishedAt = finished, UpdatedAt = finished, Outcome = report.Outcome, ExitCode = report.ExitCode, Message = report.Message },
                hold.LeaseId, null, CancellationToken.None).ConfigureAwait(false);
            await load.Queue.DeleteAsync(message, CancellationToken.None).ConfigureAwait(false);
            await hold.ReleaseAsync().ConfigureAwait(false);
            LogShardDone(spec.Id, report.RowsRead, report.RowsWritten, report.RowsRejected, report.RowsSkipped, report.ElapsedSeconds);
            return ShardResult.Done(report);
        }

        if (result.Outcome.Kind == LoadOutcomeKind.Stopped && stopping.IsCancellationRequested)
        {
            return await StoppedAsync(load, spec, state, message, hold, report).ConfigureAwait(false);
        }

        return await FailedAsync(load, spec, state, message, hold, report.Outcome, report.ExitCode, report.Message ?? report.Outcome, report).ConfigureAwait(false);
    }

    /// <summary>
    /// The lease is held: by the worker on this very message (whose hold on the message lapsed, so it showed again),
    /// or by a worker on another message of the shard, which makes this one a duplicate.
    /// </summary>
    private async Task<ShardResult> OnHeldElsewhereAsync(ShardedLoad load, ShardSpec spec, ReceivedShard message)
    {
        var stored = await load.Store.ReadStateAsync(spec.Id, CancellationToken.None).ConfigureAwait(false);
        if (stored.State?.MessageId is { } current && current != message.MessageId)
        {
            LogDuplicate(spec.Id, message.MessageId, current);
            await load.Queue.DeleteAsync(message, CancellationToken.None).ConfigureAwait(false);
        }
        else
        {
            LogHeldElsewhere(spec.Id, stored.State?.Worker ?? "?");
            await ReturnAsync(load, message, options.Value.Shards.VisibilityTimeout).ConfigureAwait(false);
        }

        return ShardResult.Skipped;
    }

    /// <summary>
    /// Stopped by SIGTERM with its checkpoint written: the shard goes back as a new message, so a shard that makes progress
    /// over several stopped executions is not counted toward the poison queue.
    /// </summary>
    private async Task<ShardResult> StoppedAsync(ShardedLoad load, ShardSpec spec, ShardState state, ReceivedShard message, ShardHold hold, LoadReport report)
    {
        var messageId = await load.Queue.SendAsync(new ShardMessage(state.LoadId, spec.Id), TimeSpan.Zero, CancellationToken.None).ConfigureAwait(false);
        var now = timeProvider.GetUtcNow();
        await load.Store.WriteStateAsync(
            state with { Status = ShardStatus.Queued, MessageId = messageId, UpdatedAt = now, Outcome = report.Outcome, ExitCode = report.ExitCode, Message = "stopped by its worker; resumes from its checkpoint" },
            hold.LeaseId, null, CancellationToken.None).ConfigureAwait(false);
        await load.Queue.DeleteAsync(message, CancellationToken.None).ConfigureAwait(false);
        await hold.ReleaseAsync().ConfigureAwait(false);
        LogShardStopped(spec.Id, report.RowsWritten);
        return ShardResult.Stopped;
    }

    private async Task<ShardResult> FailedAsync(ShardedLoad load, ShardSpec spec, ShardState state, ReceivedShard message, ShardHold hold, string outcome, int exitCode, string why, LoadReport? report = null)
    {
        await hold.StopRenewingAsync().ConfigureAwait(false);
        var shards = options.Value.Shards;
        if (message.DequeueCount >= shards.MaxDequeues)
        {
            var stored = new StoredShardState(state with { Outcome = outcome, ExitCode = exitCode }, default, Leased: true);
            var result = await PoisonAsync(load, spec, stored, message, hold.LeaseId,
                string.Create(CultureInfo.InvariantCulture, $"failed {message.DequeueCount} times (Loader:Shards:MaxDequeues {shards.MaxDequeues}); the last time: {why}")).ConfigureAwait(false);
            await hold.ReleaseAsync().ConfigureAwait(false);
            return result;
        }

        var now = timeProvider.GetUtcNow();
        await load.Store.WriteStateAsync(
            state with { Status = ShardStatus.Failed, FinishedAt = now, UpdatedAt = now, Outcome = outcome, ExitCode = exitCode, Message = why },
            hold.LeaseId, null, CancellationToken.None).ConfigureAwait(false);
        await ReturnAsync(load, message, shards.RetryDelay).ConfigureAwait(false);
        await hold.ReleaseAsync().ConfigureAwait(false);
        LogShardFailed(spec.Id, message.DequeueCount, shards.MaxDequeues, exitCode, why, shards.RetryDelay.TotalSeconds);
        return ShardResult.Failed(report);
    }

    private async Task<ShardResult> PoisonAsync(ShardedLoad load, ShardSpec spec, StoredShardState stored, ReceivedShard message, string? leaseId, string why)
    {
        var now = timeProvider.GetUtcNow();
        var state = (stored.State ?? new ShardState { LoadId = message.Message!.LoadId, Shard = spec.Id, Status = ShardStatus.Queued, UpdatedAt = now })
            with { Status = ShardStatus.Poisoned, FinishedAt = now, UpdatedAt = now, Message = why };
        try
        {
            await load.Store.WriteStateAsync(state, leaseId, leaseId is null && stored.State is not null ? stored.ETag : null, CancellationToken.None).ConfigureAwait(false);
        }
        catch (RequestFailedException exception) when (exception.Status is 412 or 409)
        {
            // A worker took the shard meanwhile: its run decides; the message stays with it.
            return ShardResult.Skipped;
        }

        await load.Queue.PoisonAsync(message, CancellationToken.None).ConfigureAwait(false);
        LogPoisoned(spec.Id, load.Queue.PoisonDisplay, why);
        return ShardResult.Poisoned;
    }

    /// <summary>Lets a message show again after <paramref name="delay"/>; one no longer this worker's is left alone.</summary>
    private static async Task ReturnAsync(ShardedLoad load, ReceivedShard message, TimeSpan delay)
    {
        try
        {
            await load.Queue.ExtendAsync(message, delay, CancellationToken.None).ConfigureAwait(false);
        }
        catch (RequestFailedException exception) when (exception.Status is 404 or 400)
        {
            // Taken by another worker meanwhile.
        }
    }

    private ShardState NewState(LoadManifest manifest, ShardSpec spec) =>
        new() { LoadId = manifest.LoadId, Shard = spec.Id, Status = ShardStatus.Queued, Enqueued = true, UpdatedAt = timeProvider.GetUtcNow() };

    [LoggerMessage(Level = LogLevel.Information, Message = "Worker {Worker} taking shards of load {LoadId} ({Shards} shards) from {Queue}")]
    private partial void LogStarting(string worker, string loadId, int shards, string queue);

    [LoggerMessage(Level = LogLevel.Information, Message = "Shard {Shard} ({What}): attempt {Attempt} starting (message taken {DequeueCount} times)")]
    private partial void LogShardStarting(string shard, string what, int attempt, long dequeueCount);

    [LoggerMessage(Level = LogLevel.Information, Message = "Shard {Shard} done: {RowsRead:N0} rows read, {RowsWritten:N0} written, {RowsRejected:N0} rejected, {RowsSkipped:N0} settled by an earlier run, in {Seconds:0.0} s")]
    private partial void LogShardDone(string shard, long rowsRead, long rowsWritten, long rowsRejected, long rowsSkipped, double seconds);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Shard {Shard} failed (message taken {DequeueCount} of {MaxDequeues} times; exit code {ExitCode}): {Reason}; it can be taken again in {Seconds:0} s")]
    private partial void LogShardFailed(string shard, long dequeueCount, int maxDequeues, int exitCode, string reason, double seconds);

    [LoggerMessage(Level = LogLevel.Error, Message = "Shard {Shard} moved to the poison queue {PoisonQueue}: {Reason}")]
    private partial void LogPoisoned(string shard, string poisonQueue, string reason);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Shard {Shard} stopped on request after writing {RowsWritten:N0} rows; back in the queue, it resumes from its checkpoint")]
    private partial void LogShardStopped(string shard, long rowsWritten);

    [LoggerMessage(Level = LogLevel.Error, Message = "Shard {Shard}: the run failed unexpectedly")]
    private partial void LogShardCrashed(string shard, Exception exception);

    [LoggerMessage(Level = LogLevel.Error, Message = "Shard {Shard}: the lease was lost mid-run; the shard is left to the worker that has it")]
    private partial void LogShardTakenOver(string shard);

    [LoggerMessage(Level = LogLevel.Information, Message = "Shard {Shard} is {Status} already; its message {MessageId} is deleted")]
    private partial void LogAlreadySettled(string shard, ShardStatus status, string messageId);

    [LoggerMessage(Level = LogLevel.Information, Message = "Shard {Shard}: message {MessageId} is a duplicate of {Current}, which a worker holds; deleted")]
    private partial void LogDuplicate(string shard, string messageId, string current);

    [LoggerMessage(Level = LogLevel.Information, Message = "Shard {Shard} is held by worker {Worker}; its message is hidden again")]
    private partial void LogHeldElsewhere(string shard, string worker);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Message {MessageId} is not a shard of this load ('{Text}'): moved to {PoisonQueue}")]
    private partial void LogForeignMessage(string messageId, string text, string poisonQueue);
}
