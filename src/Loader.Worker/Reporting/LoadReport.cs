using System.Text.Json.Serialization;

namespace Loader.Worker.Reporting;

/// <summary>The JSON report of one load. Counts reconcile: <c>rowsRead = rowsWritten + rowsRejected + rowsSuperseded + rowsFailed + rowsAlreadyWritten + rowsAlreadyAbsent</c> (under WriteMode Delete, written rows are deleted ones).</summary>
internal sealed record LoadReport
{
    public required string Backend { get; init; }

    public required bool DryRun { get; init; }

    public required string Input { get; init; }

    public required string Target { get; init; }

    /// <summary>How the load ended, written by name: <c>Completed</c>, <c>CompletedWithFailures</c>, <c>RejectLimitExceeded</c>, <c>Stopped</c>, <c>CheckpointLost</c>, <c>OutputFailed</c> or <c>Failed</c>.</summary>
    public required ReportOutcome Outcome { get; init; }

    public required int ExitCode { get; init; }

    /// <summary>Whether the load completed: every row settled and every output stored (exit code 0).</summary>
    [JsonIgnore]
    public bool Completed => Outcome == ReportOutcome.Completed;

    /// <summary>Why the load failed or stopped, when it did.</summary>
    public string? Message { get; init; }

    public required DateTimeOffset StartedAt { get; init; }

    public required DateTimeOffset FinishedAt { get; init; }

    public required double ElapsedSeconds { get; init; }

    public required long RowsRead { get; init; }

    public required long RowsWritten { get; init; }

    public required long RowsRejected { get; init; }

    public required long RowsSuperseded { get; init; }

    public required long RowsFailed { get; init; }

    /// <summary>Rows not read because a checkpoint showed them done.</summary>
    public required long RowsSkipped { get; init; }

    /// <summary>Rows a resumed Insert load met again and found stored by the run before it (a conflict that is not a reject).</summary>
    public required long RowsAlreadyWritten { get; init; }

    /// <summary>Rows of a Delete load whose entity the store did not hold: nothing to delete (a 404 that is not a reject).</summary>
    public long RowsAlreadyAbsent { get; init; }

    /// <summary>The shard of a sharded load this report is of; null for a load of the whole input.</summary>
    public string? Shard { get; init; }

    /// <summary>Rows a key shard read that belong to other shards (not in <see cref="RowsRead"/>); null unless a key shard.</summary>
    public long? RowsOfOtherShards { get; init; }

    /// <summary>The first record this run read when it resumed from a checkpoint; null for a load from the top.</summary>
    public long? ResumedAtRecord { get; init; }

    public string? CheckpointPath { get; init; }

    /// <summary>Whether every row read is accounted for.</summary>
    public required bool Reconciled { get; init; }

    /// <summary>The input's format, which says what its lines are (a Parquet input has rows only); null when it was not opened.</summary>
    [JsonIgnore]
    public Inputs.InputFormat? InputFormat { get; init; }

    /// <summary>Lines of the input read, header and blank lines included; null when the input was not opened.</summary>
    public long? LinesRead { get; init; }

    /// <summary>Lines the rejected rows spanned: one each, unless a field held line breaks.</summary>
    public long LinesRejected { get; init; }

    /// <summary>Transactions the service applied.</summary>
    public required long Batches { get; init; }

    /// <summary>Requests sent, retries and refused attempts included.</summary>
    public required long Requests { get; init; }

    public required double RowsPerSecond { get; init; }

    /// <summary>Latency of each request, in milliseconds.</summary>
    public required LatencySummary LatencyMs { get; init; }

    /// <summary>Throttling responses (429, 503) the service sent.</summary>
    public required long Throttled { get; init; }

    /// <summary>Throttled answers as a share of the service's answers: of requests, or of operations in Cosmos DB bulk mode, where each is answered on its own.</summary>
    public required double ThrottledShare { get; init; }

    /// <summary>Of <see cref="Throttled"/>, by the limit the service said each met (Cosmos DB's 429 sub-status).</summary>
    public ThrottledBy ThrottledBy { get; init; } = new(0, 0, 0);

    /// <summary>The priority level and throughput bucket the Cosmos DB client sent; null for other backends.</summary>
    public CosmosRequestClass? Cosmos { get; init; }

    public required long Retries { get; init; }

    public required double RetryWaitSeconds { get; init; }

    /// <summary>Total request units charged; null when the service reports none (Azure Storage).</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public required double? RequestCharge { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public required double? RequestUnitsPerRow { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public required double? RequestUnitsPerSecond { get; init; }

    /// <summary>Batches in flight over the load (<c>Loader:Concurrency</c>).</summary>
    public required ConcurrencyReport Concurrency { get; init; }

    /// <summary>The request-unit rate the load was paced at in the end (learned from 429s, or the configured cap); null when unpaced.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public required double? PacedRequestUnitsPerSecond { get; init; }

    /// <summary>One sample per progress interval: how the load went over time.</summary>
    public required IReadOnlyList<ProgressSample> Timeline { get; init; }

    public string? RejectsPath { get; init; }

    /// <summary>Where the HTML report of this load went (a path, or a URL without its signature); null for none.</summary>
    public string? HtmlReportPath { get; init; }

    /// <summary>The input's stored size in bytes; null when the input was not opened.</summary>
    public long? InputBytes { get; init; }

    /// <summary>Request latencies as buckets on a log scale, for the histogram of the HTML report.</summary>
    public IReadOnlyList<LatencyBucket> LatencyHistogram { get; init; } = [];

    /// <summary>Rejected rows by kind of reason, most rows first, each with its first few rows.</summary>
    public IReadOnlyList<RejectReason> RejectReasons { get; init; } = [];

    /// <summary>The settings the load ran with: connection strings and keys hidden, signatures cut from URLs.</summary>
    public IReadOnlyDictionary<string, string> Settings { get; init; } = new Dictionary<string, string>();

    /// <summary>Peak resident memory of the loader process, in MiB.</summary>
    public required double PeakMemoryMiB { get; init; }

    /// <summary>Why rows failed, most rows first.</summary>
    public required IReadOnlyList<ErrorCount> Errors { get; init; }

    /// <summary>How a Cosmos DB Merge updated the stored items; null when none was updated so (another mode or backend, or only new items).</summary>
    public MergeReport? Merge { get; init; }

    /// <summary>The partition keys: how many, the top 20 by rows, rows per partition; null when no batch was sent.</summary>
    public Partitions.PartitionsReport? Partitions { get; init; }

    /// <summary>What limited the load, in one sentence, with the figures it rests on (docs/what-limited-a-load.md).</summary>
    public Verdict.LimitVerdict? Verdict { get; init; }

    /// <summary>Where the load's time went: reading, waiting for the service, throttled back-off, checkpointing.</summary>
    public Verdict.TimeBreakdown? TimeBreakdown { get; init; }
}

/// <summary>How a Cosmos DB Merge updated stored items: operations sent each way, retries included.</summary>
/// <param name="Method"><c>Patch</c>, <c>ReadReplace</c>, or <c>Mixed</c> when both were used.</param>
/// <param name="PatchOperations">Stored items patched with a <c>set</c> per property (rows of at most 10 properties).</param>
/// <param name="ReadReplaceOperations">Stored items replaced, under the ETag read, with the row laid over them (rows of more).</param>
internal sealed record MergeReport(string Method, long PatchOperations, long ReadReplaceOperations)
{
    public static MergeReport? Of(long patched, long replaced) => (patched, replaced) switch
    {
        (0, 0) => null,
        (_, 0) => new MergeReport("Patch", patched, replaced),
        (0, _) => new MergeReport("ReadReplace", patched, replaced),
        _ => new MergeReport("Mixed", patched, replaced),
    };
}

/// <summary>Percentiles of request latency in milliseconds.</summary>
internal sealed record LatencySummary(double P50, double P90, double P95, double P99, double Max, double Mean)
{
    public static LatencySummary From(LatencyHistogram histogram) => new(
        Milliseconds(histogram.Percentile(50)),
        Milliseconds(histogram.Percentile(90)),
        Milliseconds(histogram.Percentile(95)),
        Milliseconds(histogram.Percentile(99)),
        Milliseconds(histogram.Max),
        Milliseconds(histogram.Mean));

    private static double Milliseconds(TimeSpan value) => Math.Round(value.TotalMilliseconds, 2);
}

/// <summary>Throttled answers by the limit they met.</summary>
/// <param name="RequestUnitBudget">429 sub-status 3200: the request units provisioned (account or partition) were spent.</param>
/// <param name="ThroughputBucket">429 sub-status 3212: the throughput bucket the requests named (<c>Loader:Cosmos:ThroughputBucket</c>) was spent.</param>
/// <param name="Other">Every other throttled answer (another or no sub-status, Table Storage's 503s).</param>
internal sealed record ThrottledBy(long RequestUnitBudget, long ThroughputBucket, long Other);

/// <summary>What a Cosmos DB load's client sent with every request.</summary>
/// <param name="PriorityLevel"><c>High</c> or <c>Low</c>; null: none sent, the account's default applies.</param>
/// <param name="ThroughputBucket">1 to 5; null: none sent.</param>
internal sealed record CosmosRequestClass(string? PriorityLevel, int? ThroughputBucket);

/// <summary>Batches allowed in flight over a load.</summary>
internal sealed record ConcurrencyReport(string Mode, int Min, double Average, int Max, int Final);

/// <summary>A moment of a load: totals so far and the pace at that time.</summary>
/// <param name="Seconds">Seconds since the load started.</param>
/// <param name="RowsWritten">Rows written so far.</param>
/// <param name="Requests">Requests sent so far.</param>
/// <param name="Throttled">Throttled answers so far.</param>
/// <param name="RequestCharge">Request units charged so far (0 when the service reports none).</param>
/// <param name="Concurrency">Batches allowed in flight at that moment.</param>
/// <param name="PacedRequestUnitsPerSecond">Request-unit rate paced at, or null.</param>
/// <param name="InFlight">Batches in flight at that moment (at most <paramref name="Concurrency"/>, give or take one being handed over).</param>
internal sealed record ProgressSample(double Seconds, long RowsWritten, long Requests, long Throttled, double RequestCharge, int Concurrency, double? PacedRequestUnitsPerSecond, long InFlight = 0);
