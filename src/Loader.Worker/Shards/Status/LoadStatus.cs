using Loader.Worker.Configuration;
using Loader.Worker.Reporting;

namespace Loader.Worker.Shards.Status;

/// <summary>
/// The report of a whole sharded load, merged from its shards' reports by <c>status</c>. Reconciled over all shards:
/// <c>rows = written + rejected + superseded + failed + alreadyWritten + alreadyAbsent + settledByEarlierRuns</c>, every shard settled, and
/// (key shards) every shard read the same records.
/// </summary>
internal sealed record LoadStatus
{
    public required string LoadId { get; init; }

    public required string Input { get; init; }

    public required ShardKind By { get; init; }

    public required string Queue { get; init; }

    public required string State { get; init; }

    public required DateTimeOffset PlannedAt { get; init; }

    public required DateTimeOffset CheckedAt { get; init; }

    /// <summary>Every shard done: nothing waiting, running or poisoned.</summary>
    public required bool Complete { get; init; }

    /// <summary>Complete, and every input row accounted for over all shards.</summary>
    public required bool Reconciled { get; init; }

    /// <summary>Why not reconciled, when it is not.</summary>
    public string? Problem { get; init; }

    public required ShardCounts Shards { get; init; }

    /// <summary>Messages in the shard queue and in its poison queue (the service's approximate counts).</summary>
    public required int QueueMessages { get; init; }

    public required int PoisonMessages { get; init; }

    /// <summary>Rows of the input the shards' last runs account for (read, or settled by an earlier run of the shard).</summary>
    public required long Rows { get; init; }

    public required long RowsWritten { get; init; }

    public required long RowsRejected { get; init; }

    public required long RowsSuperseded { get; init; }

    public required long RowsFailed { get; init; }

    public required long RowsAlreadyWritten { get; init; }

    /// <summary>Rows of a Delete load whose entity was not stored.</summary>
    public long RowsAlreadyAbsent { get; init; }

    /// <summary>Rows a shard's last run found settled by an earlier run of the same shard (a worker that died or was stopped).</summary>
    public required long RowsSettledByEarlierRuns { get; init; }

    public required long Batches { get; init; }

    public required long Requests { get; init; }

    public required long Throttled { get; init; }

    public required long Retries { get; init; }

    public double? RequestCharge { get; init; }

    /// <summary>From the first shard's start to the last one's end (or now, while shards run).</summary>
    public required double ElapsedSeconds { get; init; }

    public required double RowsPerSecond { get; init; }

    /// <summary>The slowest shard's 99th percentile request latency.</summary>
    public required double WorstP99LatencyMs { get; init; }

    public string? RejectsPath { get; init; }

    public required IReadOnlyList<ShardLine> ShardList { get; init; }
}

/// <summary>How many shards stand where.</summary>
internal sealed record ShardCounts(int Total, int Done, int Running, int Waiting, int Poisoned);

/// <summary>One shard in the status: what it covers, where it stands, what its last run did.</summary>
internal sealed record ShardLine
{
    public required string Id { get; init; }

    public required string Covers { get; init; }

    /// <summary><c>done</c>, <c>running</c>, <c>waiting</c> or <c>poisoned</c>.</summary>
    public required string Status { get; init; }

    public int Attempts { get; init; }

    public string? Worker { get; init; }

    public DateTimeOffset? StartedAt { get; init; }

    public DateTimeOffset? FinishedAt { get; init; }

    public long? RowsRead { get; init; }

    public long? RowsWritten { get; init; }

    public long? RowsRejected { get; init; }

    public long? RowsSkipped { get; init; }

    public long? RowsOfOtherShards { get; init; }

    public long? ResumedAtRecord { get; init; }

    public ReportOutcome? Outcome { get; init; }

    /// <summary>Why it waits, failed or was poisoned.</summary>
    public string? Message { get; init; }
}
