using Azure;
using Loader.Worker.Backends;
using Loader.Worker.Configuration;
using Loader.Worker.Outcomes;
using Loader.Worker.Outputs;
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
/// What becomes of a message at each step is decided by <see cref="ShardTransitions"/>; this class reads, runs and
/// carries the decisions out.
/// </summary>
internal sealed partial class ShardWorker(
    IOptions<LoaderOptions> options,
    ShardedLoadFactory loads,
    ShardRun run,
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

    /// <summary>Handles one message: each step reads or runs what it needs, then carries out what <see cref="ShardTransitions"/> decides.</summary>
    private async Task<ShardResult> HandleAsync(ShardedLoad load, LoadManifest manifest, ReceivedShard message, CancellationToken stopping)
    {
        var shards = options.Value.Shards;
        if (ShardTransitions.ShardOf(manifest, message) is not { } spec)
        {
            return await SettleAsync(new Handling(load, null, message), ShardTransitions.NotThisLoad, hold: null).ConfigureAwait(false);
        }

        var handling = new Handling(load, spec, message);
        var stored = await load.Store.ReadStateAsync(spec.Id, CancellationToken.None).ConfigureAwait(false);
        var decision = ShardTransitions.OnReceived(message, spec, stored, shards, timeProvider.GetUtcNow());
        if (decision.Step != ShardStep.Take)
        {
            return await SettleAsync(handling with { Seen = stored.State }, decision, hold: null).ConfigureAwait(false);
        }

        if (decision.Record is { } missing)
        {
            await load.Store.TryCreateStateAsync(missing, CancellationToken.None).ConfigureAwait(false);
        }

        await using var hold = await ShardHold.TryTakeAsync(load.Store.LeaseOf(spec.Id), load.Queue, message, shards.VisibilityTimeout, timeProvider, logger, CancellationToken.None).ConfigureAwait(false);
        if (hold is null)
        {
            var current = (await load.Store.ReadStateAsync(spec.Id, CancellationToken.None).ConfigureAwait(false)).State;
            return await SettleAsync(handling with { Seen = current }, ShardTransitions.OnLeaseRefused(message, current, shards), hold: null).ConfigureAwait(false);
        }

        // Read again under the lease: the state as the last holder left it.
        stored = await load.Store.ReadStateAsync(spec.Id, CancellationToken.None).ConfigureAwait(false);
        decision = ShardTransitions.OnLeaseTaken(message, spec, stored.State, _worker, timeProvider.GetUtcNow());
        if (decision.Step != ShardStep.Start)
        {
            return await SettleAsync(handling, decision, hold).ConfigureAwait(false);
        }

        var running = decision.Record!;
        await load.Store.WriteStateAsync(running, hold.LeaseId, null, CancellationToken.None).ConfigureAwait(false);
        var what = spec.Describe();
        LogShardStarting(spec.Id, what, running.Attempts, message.DequeueCount);
        var (end, crash) = await RunShardAsync(manifest, spec, load.Store, hold, stopping).ConfigureAwait(false);
        decision = ShardTransitions.OnRunEnded(running, end, message.DequeueCount, shards, timeProvider.GetUtcNow());
        if (crash is not null && decision.Step != ShardStep.LeaseLost)
        {
            LogShardCrashed(spec.Id, crash);
        }

        return await SettleAsync(handling with { Report = end.Report }, decision, hold).ConfigureAwait(false);
    }

    /// <summary>Runs the shard; a run that throws crashed, unless the lease was lost (then it was cut off, which the end says).</summary>
    private async Task<(ShardRunEnd End, Exception? Crash)> RunShardAsync(LoadManifest manifest, ShardSpec spec, ShardStateStore store, ShardHold hold, CancellationToken stopping)
    {
        ShardRunEnd end;
        Exception? crash = null;
        try
        {
            end = ShardRunEnd.Of(await run.RunAsync(manifest, spec, store, stopping, hold.Lost).ConfigureAwait(false));
        }
        catch (Exception exception)
        {
            crash = exception;
            end = ShardRunEnd.Crashed(ExitCodes.Of(LoadOutcomeKind.UnexpectedError), BackendErrors.Describe(exception));
        }

        return (end with { StopRequested = stopping.IsCancellationRequested, LeaseLost = hold.Lost.IsCancellationRequested }, crash);
    }

    /// <summary>
    /// Carries out a decision that ends the handling of a message, in this order: the state recorded (a poisoning that
    /// finds another worker on the shard gives way to it), the message, the lease. What was found is said before it is acted
    /// on; what was recorded, once it is.
    /// </summary>
    private async Task<ShardResult> SettleAsync(Handling handling, ShardDecision decision, ShardHold? hold)
    {
        if (decision.Record is null)
        {
            LogFound(handling, decision);
        }

        if (decision.ReleaseLease)
        {
            await hold!.StopRenewingAsync().ConfigureAwait(false);
        }

        if (decision.Record is { } record)
        {
            if (decision.Message == MessageAction.GiveBack)
            {
                record = record with { MessageId = await SendAgainAsync(handling.Load, record).ConfigureAwait(false) };
            }

            if (!await RecordAsync(handling.Load, decision, record, hold).ConfigureAwait(false))
            {
                await ReleaseAsync(decision, hold).ConfigureAwait(false);
                return ShardResult.Skipped;
            }
        }

        await (decision.Message switch
        {
            MessageAction.Delete or MessageAction.GiveBack => handling.Load.Queue.DeleteAsync(handling.Message, CancellationToken.None),
            MessageAction.ShowAfter => ShowAfterAsync(handling.Load, handling.Message, decision.Delay),
            MessageAction.Poison => handling.Load.Queue.PoisonAsync(handling.Message, CancellationToken.None),
            _ => Task.CompletedTask,
        }).ConfigureAwait(false);
        await ReleaseAsync(decision, hold).ConfigureAwait(false);
        if (decision.Record is { } recorded)
        {
            LogRecorded(handling, decision, recorded);
        }

        return decision.Result;
    }

    /// <summary>Writes the decision's state: under the lease when held, else only if unchanged; false when a poisoning found the shard taken meanwhile.</summary>
    private static async Task<bool> RecordAsync(ShardedLoad load, ShardDecision decision, ShardState record, ShardHold? hold)
    {
        try
        {
            await load.Store.WriteStateAsync(record, hold?.LeaseId, hold is null ? decision.IfMatch : null, CancellationToken.None).ConfigureAwait(false);
            return true;
        }
        catch (RequestFailedException exception) when (exception.Status is 412 or 409 && decision.Step == ShardStep.Poisoned)
        {
            // A worker took the shard meanwhile: its run decides; the message stays with it.
            return false;
        }
    }

    /// <summary>Puts the shard in the queue again as a new message, visible at once; returns its id.</summary>
    private static Task<string> SendAgainAsync(ShardedLoad load, ShardState state) =>
        load.Queue.SendAsync(new ShardMessage(state.LoadId, state.Shard), TimeSpan.Zero, CancellationToken.None);

    /// <summary>Lets a message show again after <paramref name="delay"/>; one no longer this worker's is left alone.</summary>
    private static async Task ShowAfterAsync(ShardedLoad load, ReceivedShard message, TimeSpan delay)
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

    private static Task ReleaseAsync(ShardDecision decision, ShardHold? hold) =>
        decision.ReleaseLease ? hold!.ReleaseAsync() : Task.CompletedTask;

    /// <summary>The message in hand: its load, its shard (null when not this load's), the state as last read, the run's report.</summary>
    private sealed record Handling(ShardedLoad Load, ShardSpec? Spec, ReceivedShard Message)
    {
        public ShardState? Seen { get; init; }

        public LoadReport? Report { get; init; }
    }

    private void LogFound(Handling handling, ShardDecision decision)
    {
        var (load, spec, message) = (handling.Load, handling.Spec, handling.Message);
        switch (decision.Step)
        {
            case ShardStep.NotThisLoad:
                // Kept for a person to look at.
                LogForeignMessage(message.MessageId, message.Text.Length > 200 ? message.Text[..200] : message.Text, load.Queue.PoisonDisplay);
                break;
            case ShardStep.AlreadySettled:
                LogAlreadySettled(spec!.Id, handling.Seen!.Status, message.MessageId);
                break;
            case ShardStep.Duplicate:
                LogDuplicate(spec!.Id, message.MessageId, handling.Seen!.MessageId!);
                break;
            case ShardStep.HeldElsewhere:
                LogHeldElsewhere(spec!.Id, handling.Seen?.Worker ?? "?");
                break;
            case ShardStep.LeaseLost:
                LogShardTakenOver(spec!.Id);
                break;
        }
    }

    private void LogRecorded(Handling handling, ShardDecision decision, ShardState recorded)
    {
        var (spec, report) = (handling.Spec!, handling.Report);
        switch (decision.Step)
        {
            case ShardStep.Done:
                LogShardDone(spec.Id, report!.RowsRead, report.RowsWritten, report.RowsRejected, report.RowsSkipped, report.ElapsedSeconds);
                break;
            case ShardStep.FailedWillRetry:
                LogShardFailed(spec.Id, handling.Message.DequeueCount, options.Value.Shards.MaxDequeues, recorded.ExitCode!.Value, recorded.Message!, decision.Delay.TotalSeconds);
                break;
            case ShardStep.Poisoned:
                LogPoisoned(spec.Id, handling.Load.Queue.PoisonDisplay, recorded.Message!);
                break;
            case ShardStep.GivenBack:
                LogShardStopped(spec.Id, report!.RowsWritten);
                break;
        }
    }

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
