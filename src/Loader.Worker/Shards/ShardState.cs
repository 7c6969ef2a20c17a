using Loader.Worker.Reporting;

namespace Loader.Worker.Shards;

/// <summary>Where a shard stands, kept as <c>shards/&lt;id&gt;/state.json</c>; a worker holds a lease on that blob while it works the shard.</summary>
internal sealed record ShardState
{
    public required string LoadId { get; init; }

    public required string Shard { get; init; }

    public required ShardStatus Status { get; init; }

    /// <summary>Whether <c>plan</c> has put the shard's message in the queue (a plan stopped between the two sends it again).</summary>
    public bool Enqueued { get; init; }

    /// <summary>The queue message that stands for the shard now: a worker that meets another message of the shard knows it for a duplicate.</summary>
    public string? MessageId { get; init; }

    /// <summary>How many times a worker started on the shard.</summary>
    public int Attempts { get; init; }

    /// <summary>The worker on it now, or the last one (host and process).</summary>
    public string? Worker { get; init; }

    /// <summary>When a worker first started on the shard.</summary>
    public DateTimeOffset? FirstStartedAt { get; init; }

    /// <summary>When the current (or last) attempt started.</summary>
    public DateTimeOffset? StartedAt { get; init; }

    public DateTimeOffset? FinishedAt { get; init; }

    public required DateTimeOffset UpdatedAt { get; init; }

    /// <summary>The outcome and exit code of the last attempt, and why it failed or the shard was poisoned.</summary>
    public ReportOutcome? Outcome { get; init; }

    public int? ExitCode { get; init; }

    public string? Message { get; init; }
}

/// <summary>The life of a shard.</summary>
internal enum ShardStatus
{
    /// <summary>In the queue, not started.</summary>
    Queued,

    /// <summary>A worker holds it.</summary>
    Running,

    /// <summary>Its last attempt failed; back in the queue for another.</summary>
    Failed,

    /// <summary>Every row settled; its message deleted.</summary>
    Done,

    /// <summary>Taken too often without being settled: moved to the poison queue.</summary>
    Poisoned,
}
