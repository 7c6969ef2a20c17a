using Azure;

namespace Loader.Worker.Shards.Work;

/// <summary>
/// What a worker does with a shard's message at one step (<see cref="ShardTransitions"/>): the state to record, what
/// becomes of the message and the lease, and what the message counts as in the worker's tally. The worker carries it out.
/// </summary>
/// <param name="Step">Where the message stands now.</param>
/// <param name="Result">What it counts as, once the step is carried out.</param>
internal sealed record ShardDecision(ShardStep Step, ShardResult Result)
{
    /// <summary>
    /// The shard's state to write: for <see cref="ShardStep.Take"/> the state to create where the plan left none; else
    /// written under the lease when this worker holds it, or only if it is still at <see cref="IfMatch"/>. A state given
    /// back (<see cref="MessageAction.GiveBack"/>) names the new message, known once it is sent.
    /// </summary>
    public ShardState? Record { get; init; }

    /// <summary>The version of the state the decision was made on, for a write without a lease.</summary>
    public ETag? IfMatch { get; init; }

    public MessageAction Message { get; init; }

    /// <summary>For <see cref="MessageAction.ShowAfter"/>: how long the message stays hidden before it shows again.</summary>
    public TimeSpan Delay { get; init; }

    /// <summary>Whether the worker gives its lease on the shard back (it holds one and is done with the shard).</summary>
    public bool ReleaseLease { get; init; }
}

/// <summary>
/// Where a shard's message stands as one worker handles it. <see cref="Take"/> and <see cref="Start"/> lead on; every other
/// step ends the handling of the message.
/// </summary>
internal enum ShardStep
{
    /// <summary>Waiting and nothing settles it: take the lease on the shard (its state created first when the plan left none).</summary>
    Take,

    /// <summary>Held by this worker: record it running, then run it.</summary>
    Start,

    /// <summary>The message names no shard of this load: kept in the poison queue for a person to look at.</summary>
    NotThisLoad,

    /// <summary>The shard is done or poisoned already (a duplicate message, or one that showed again): the message is deleted.</summary>
    AlreadySettled,

    /// <summary>The shard settled between the first read and the lease: the message is deleted, the lease given back.</summary>
    SettledMeanwhile,

    /// <summary>Another worker holds the shard on another message: this one is a duplicate and is deleted.</summary>
    Duplicate,

    /// <summary>Another worker holds the shard on this very message (it showed again while held): hidden again.</summary>
    HeldElsewhere,

    /// <summary>The run completed: the shard is recorded done and its message deleted.</summary>
    Done,

    /// <summary>The run failed with takes left: recorded failed, the message shows again after the retry delay.</summary>
    FailedWillRetry,

    /// <summary>Taken too often without being settled: recorded poisoned, the message moved to the poison queue.</summary>
    Poisoned,

    /// <summary>Stopped on request with its checkpoint written: given back at once as a new message.</summary>
    GivenBack,

    /// <summary>The lease was lost mid-run: state, message and lease are left to the worker that has the shard now.</summary>
    LeaseLost,
}

/// <summary>What becomes of the message a worker took.</summary>
internal enum MessageAction
{
    /// <summary>Left as it is: still wanted (the step leads on), or no longer this worker's to touch.</summary>
    Keep,

    Delete,

    /// <summary>Hidden for <see cref="ShardDecision.Delay"/> more, then shown again.</summary>
    ShowAfter,

    /// <summary>Moved to the poison queue: a copy there, then deleted here.</summary>
    Poison,

    /// <summary>
    /// Replaced by a new message that shows at once, then deleted: a shard that makes progress over several stopped runs
    /// is not counted toward the poison queue.
    /// </summary>
    GiveBack,
}
