using System.Globalization;
using Loader.Worker.Configuration;
using Loader.Worker.Outcomes;

namespace Loader.Worker.Shards.Work;

/// <summary>
/// What a worker does with a shard's message, step by step, from what it knows at that step: the message (how often it
/// was taken), the shard's state as read, whether it got the lease, how the run ended. Each step of
/// <see cref="ShardWorker"/> reads or runs something, then asks here what to do; no queue, blob or clock is touched here.
/// </summary>
/// <remarks>
/// The paths: received, then not this load's, already settled, taken too often (poisoned), or on to take the lease; the
/// lease refused: a duplicate message, or the worker that holds the shard on this message; the lease taken: settled
/// meanwhile, or start; the run ended: done, failed (shown again after the retry delay, or poisoned on the last take),
/// given back on stop, or the lease lost.
/// </remarks>
internal static class ShardTransitions
{
    /// <summary>A message that names no shard of this load: another program's, or of a load planned elsewhere with this queue.</summary>
    public static ShardDecision NotThisLoad { get; } = new(ShardStep.NotThisLoad, ShardResult.Skipped) { Message = MessageAction.Poison };

    /// <summary>The shard of this load a message names; null when it names none (<see cref="NotThisLoad"/>).</summary>
    public static ShardSpec? ShardOf(LoadManifest manifest, ReceivedShard message) =>
        message.Message is { } named && named.LoadId == manifest.LoadId ? manifest.Shards.FirstOrDefault(shard => shard.Id == named.Shard) : null;

    /// <summary>A message of <paramref name="spec"/> just taken, with the shard's state as read without a lease.</summary>
    public static ShardDecision OnReceived(ReceivedShard message, ShardSpec spec, StoredShardState stored, ShardOptions shards, DateTimeOffset now)
    {
        if (IsSettled(stored.State))
        {
            return new(ShardStep.AlreadySettled, ShardResult.Skipped) { Message = MessageAction.Delete };
        }

        // A shard whose lease is held is the holder's to settle, however often its message was taken.
        if (message.DequeueCount > shards.MaxDequeues && !stored.Leased)
        {
            var why = string.Create(CultureInfo.InvariantCulture, $"taken {message.DequeueCount - 1} times without being settled (Loader:Shards:MaxDequeues {shards.MaxDequeues})");
            var state = stored.State ?? new ShardState { LoadId = message.Message!.LoadId, Shard = spec.Id, Status = ShardStatus.Queued, UpdatedAt = now };
            return new(ShardStep.Poisoned, ShardResult.Poisoned)
            {
                Record = state with { Status = ShardStatus.Poisoned, FinishedAt = now, UpdatedAt = now, Message = why },
                IfMatch = stored.State is null ? null : stored.ETag,
                Message = MessageAction.Poison,
            };
        }

        // A plan stopped between sending the message and creating the state: the state is made now, so it can be leased.
        return new(ShardStep.Take, ShardResult.Skipped) { Record = stored.State is null ? NewState(message.Message!.LoadId, spec.Id, now) : null };
    }

    /// <summary>
    /// The lease is held: by the worker on this very message (whose hold on the message lapsed, so it showed again), or by
    /// a worker on another message of the shard, which makes this one a duplicate. <paramref name="current"/> is the state as read now.
    /// </summary>
    public static ShardDecision OnLeaseRefused(ReceivedShard message, ShardState? current, ShardOptions shards) =>
        current?.MessageId is { } holding && holding != message.MessageId
            ? new(ShardStep.Duplicate, ShardResult.Skipped) { Message = MessageAction.Delete }
            : new(ShardStep.HeldElsewhere, ShardResult.Skipped) { Message = MessageAction.ShowAfter, Delay = shards.VisibilityTimeout };

    /// <summary>The lease is this worker's; <paramref name="underLease"/> is the state as the last holder left it.</summary>
    public static ShardDecision OnLeaseTaken(ReceivedShard message, ShardSpec spec, ShardState? underLease, string worker, DateTimeOffset now)
    {
        var state = underLease ?? NewState(message.Message!.LoadId, spec.Id, now);
        if (IsSettled(state))
        {
            return new(ShardStep.SettledMeanwhile, ShardResult.Skipped) { Message = MessageAction.Delete, ReleaseLease = true };
        }

        return new(ShardStep.Start, ShardResult.Skipped)
        {
            Record = state with
            {
                Status = ShardStatus.Running,
                MessageId = message.MessageId,
                Attempts = state.Attempts + 1,
                Worker = worker,
                FirstStartedAt = state.FirstStartedAt ?? now,
                StartedAt = now,
                FinishedAt = null,
                UpdatedAt = now,
            },
        };
    }

    /// <summary>The run of the shard ended; <paramref name="running"/> is the state recorded when it started.</summary>
    public static ShardDecision OnRunEnded(ShardState running, ShardRunEnd end, long dequeueCount, ShardOptions shards, DateTimeOffset now)
    {
        if (end.LeaseLost)
        {
            // Another worker may hold the shard now: its state, message and lease are no longer this worker's to touch.
            return new(ShardStep.LeaseLost, ShardResult.TakenOver);
        }

        var ended = running with { Outcome = end.Outcome, ExitCode = end.ExitCode };
        if (end.Kind == LoadOutcomeKind.Completed)
        {
            return new(ShardStep.Done, ShardResult.Done(end.Report!))
            {
                Record = ended with { Status = ShardStatus.Done, FinishedAt = now, UpdatedAt = now, Message = end.Message },
                Message = MessageAction.Delete,
                ReleaseLease = true,
            };
        }

        if (end.Kind == LoadOutcomeKind.Stopped && end.StopRequested)
        {
            return new(ShardStep.GivenBack, ShardResult.Stopped)
            {
                Record = ended with { Status = ShardStatus.Queued, UpdatedAt = now, Message = "stopped by its worker; resumes from its checkpoint" },
                Message = MessageAction.GiveBack,
                ReleaseLease = true,
            };
        }

        var reason = end.Message ?? end.Outcome.ToString();
        if (dequeueCount >= shards.MaxDequeues)
        {
            var why = string.Create(CultureInfo.InvariantCulture, $"failed {dequeueCount} times (Loader:Shards:MaxDequeues {shards.MaxDequeues}); the last time: {reason}");
            return new(ShardStep.Poisoned, ShardResult.Poisoned)
            {
                Record = ended with { Status = ShardStatus.Poisoned, FinishedAt = now, UpdatedAt = now, Message = why },
                Message = MessageAction.Poison,
                ReleaseLease = true,
            };
        }

        return new(ShardStep.FailedWillRetry, ShardResult.Failed(end.Report))
        {
            Record = ended with { Status = ShardStatus.Failed, FinishedAt = now, UpdatedAt = now, Message = reason },
            Message = MessageAction.ShowAfter,
            Delay = shards.RetryDelay,
            ReleaseLease = true,
        };
    }

    private static bool IsSettled(ShardState? state) => state is { Status: ShardStatus.Done or ShardStatus.Poisoned };

    private static ShardState NewState(string loadId, string shard, DateTimeOffset now) =>
        new() { LoadId = loadId, Shard = shard, Status = ShardStatus.Queued, Enqueued = true, UpdatedAt = now };
}
