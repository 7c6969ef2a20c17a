using Loader.Worker.Configuration;
using Loader.Worker.Outputs;
using Loader.Worker.Reporting.Verdict;

namespace Loader.Worker.Reporting;

/// <summary>Assembles the report of one load from its settings, its statistics, what the run found and how it ended.</summary>
/// <param name="settings">The load's settings, shown in the report as they were (secrets hidden).</param>
/// <param name="backend">The backend's name, as the adapter gives it.</param>
/// <param name="statistics">The load's counts, latencies, rejects and errors.</param>
/// <param name="timeProvider">Says when the load finished.</param>
/// <param name="shard">The shard of a sharded load this run is of; null for a load of the whole input.</param>
/// <param name="keyShard">Whether the run is a key shard, which counts the rows of other shards it reads.</param>
internal sealed class LoadReportBuilder(
    LoaderOptions settings,
    string backend,
    LoadStatistics statistics,
    TimeProvider timeProvider,
    string? shard = null,
    bool keyShard = false)
{
    /// <param name="outcome">How the load ended, as the report records it.</param>
    /// <param name="run">What the run found on its way.</param>
    /// <param name="concurrency">Batches allowed in flight over the load.</param>
    /// <param name="finalLimit">Batches allowed in flight at the end.</param>
    /// <param name="pacedRequestUnitsPerSecond">The request-unit rate paced at in the end, or null.</param>
    public LoadReport Build(ReportedOutcome outcome, LoadRunFacts run, ConcurrencyReport concurrency, int finalLimit, double? pacedRequestUnitsPerSecond)
    {
        var counts = statistics.Snapshot();
        var seconds = counts.Elapsed.TotalSeconds;
        var charge = counts.RequestCharge;
        var diagnosis = Diagnose(counts, run, concurrency, pacedRequestUnitsPerSecond);
        return new LoadReport
        {
            Backend = backend,
            DryRun = settings.DryRun,
            Input = OutputFiles.Display(settings.Input) ?? "",
            Target = TargetOf(settings),
            Outcome = outcome.Outcome,
            ExitCode = outcome.ExitCode,
            Message = outcome.Message,
            StartedAt = run.StartedAt,
            FinishedAt = timeProvider.GetUtcNow(),
            ElapsedSeconds = Math.Round(seconds, 3),
            RowsRead = counts.RowsRead,
            RowsWritten = counts.RowsWritten,
            RowsRejected = counts.RowsRejected,
            RowsSuperseded = counts.RowsSuperseded,
            RowsFailed = counts.RowsFailed,
            RowsSkipped = counts.RowsSkipped,
            RowsAlreadyWritten = counts.RowsAlreadyWritten,
            RowsAlreadyAbsent = counts.RowsAlreadyAbsent,
            Shard = shard,
            RowsOfOtherShards = keyShard ? counts.RowsOfOtherShards : null,
            ResumedAtRecord = run.ResumedAtRecord,
            CheckpointPath = OutputFiles.Display(settings.CheckpointPath),
            Reconciled = counts.RowsRead == counts.RowsSettled,
            LinesRead = run.LinesRead,
            InputFormat = run.InputFormat,
            LinesRejected = counts.LinesRejected,
            Batches = counts.Batches,
            Requests = counts.Requests,
            RowsPerSecond = Math.Round(counts.RowsPerSecond, 1),
            LatencyMs = LatencySummary.From(statistics.Latency),
            Throttled = counts.Throttled,
            ThrottledShare = counts.Answers > 0 ? Math.Round((double)counts.Throttled / counts.Answers, 4) : 0,
            ThrottledBy = new ThrottledBy(counts.ThrottledBudget, counts.ThrottledBucket, counts.Throttled - counts.ThrottledBudget - counts.ThrottledBucket),
            Cosmos = settings.Backend == BackendKind.Cosmos ? new CosmosRequestClass(settings.Cosmos.PriorityLevel?.ToString(), settings.Cosmos.ThroughputBucket) : null,
            Retries = counts.Retries,
            RetryWaitSeconds = Math.Round(counts.RetryWait.TotalSeconds, 3),
            RequestCharge = charge is { } total ? Math.Round(total, 2) : null,
            RequestUnitsPerRow = charge is { } perRow && counts.RowsWritten > 0 ? Math.Round(perRow / counts.RowsWritten, 3) : null,
            RequestUnitsPerSecond = charge is { } perSecond && seconds > 0 ? Math.Round(perSecond / seconds, 1) : null,
            RejectsPath = OutputFiles.Display(settings.RejectsPath),
            HtmlReportPath = OutputFiles.Display(HtmlReportLocation.Setting(settings)),
            InputBytes = run.InputBytes,
            LatencyHistogram = statistics.Latency.Buckets(),
            RejectReasons = statistics.Rejects.Summary(),
            Settings = SettingsCatalog.Values(settings).ToDictionary(StringComparer.Ordinal),
            PeakMemoryMiB = Math.Round(ProcessMemory.PeakWorkingSetMiB(), 1),
            Concurrency = concurrency,
            PacedRequestUnitsPerSecond = pacedRequestUnitsPerSecond is { } paced ? Math.Round(paced, 1) : null,
            Timeline = [.. statistics.Samples(), ProgressReporter.Sample(counts, finalLimit, pacedRequestUnitsPerSecond)],
            Errors = statistics.Errors(),
            Merge = MergeReport.Of(counts.PatchOperations, counts.ReadReplaceOperations),
            Partitions = statistics.Partitions.Report(),
            Verdict = LoadVerdict.Choose(diagnosis),
            TimeBreakdown = TimeBreakdown.Of(diagnosis, run.Checkpointing),
        };
    }

    /// <summary>The figures the verdict is chosen from, read from the load's counters now.</summary>
    private LoadDiagnosis Diagnose(LoadCounts counts, LoadRunFacts run, ConcurrencyReport concurrency, double? pacedRequestUnitsPerSecond) => new()
    {
        Elapsed = counts.Elapsed,
        RowsRead = counts.RowsRead,
        RowsPerSecond = counts.RowsPerSecond,
        Answers = counts.Answers,
        Throttled = counts.Throttled,
        Times = statistics.Times.Snapshot(),
        InputReading = run.InputReading?.Reading ?? TimeSpan.Zero,
        InputDecompressing = run.InputReading?.Decompressing ?? TimeSpan.Zero,
        InputMedium = run.InputMedium,
        InputCompressed = run.InputCompressed,
        InputBytesRead = run.InputReading?.BytesRead ?? 0,
        AllowedConcurrency = concurrency.Average,
        ConcurrencyMode = concurrency.Mode,
        MaxParallelBatches = settings.MaxParallelBatches,
        MaxRequestUnitsPerSecond = settings.MaxRequestUnitsPerSecond,
        MaxRowsPerSecond = settings.MaxRowsPerSecond,
        PacedRequestUnitsPerSecond = pacedRequestUnitsPerSecond,
        RequestUnitsPerSecond = counts.RequestCharge is { } charge && counts.Elapsed > TimeSpan.Zero ? charge / counts.Elapsed.TotalSeconds : null,
        LongestHeld = statistics.Partitions.LongestHeld(),
        LatencyP50Milliseconds = statistics.Latency.Percentile(50).TotalMilliseconds,
        Cores = Environment.ProcessorCount,
    };

    /// <summary>The table or container the settings load into, as the report and <c>--check</c> name it.</summary>
    public static string TargetOf(LoaderOptions settings) => settings.Backend switch
    {
        BackendKind.Tables => $"table '{settings.Tables.Table}'",
        BackendKind.Cosmos => $"container '{settings.Cosmos.Database}/{settings.Cosmos.Container}' ({settings.Cosmos.Mode})",
        _ => settings.Backend.ToString(),
    };
}

/// <summary>What the report of a run needs to know beyond its statistics, filled in as the run goes.</summary>
internal sealed class LoadRunFacts(DateTimeOffset startedAt)
{
    public DateTimeOffset StartedAt { get; } = startedAt;

    /// <summary>The first record the run read when it resumed from a checkpoint; null for a load from the top.</summary>
    public long? ResumedAtRecord { get; set; }

    /// <summary>Lines of the input read, once reading is over.</summary>
    public long? LinesRead { get; set; }

    /// <summary>The input's format, once it is found.</summary>
    public Inputs.InputFormat? InputFormat { get; set; }

    /// <summary>The input's stored size, once it is open.</summary>
    public long? InputBytes { get; set; }

    /// <summary>How reading the input went (bytes, time waiting for them, time decompressing), once it is open.</summary>
    public Inputs.InputProgress? InputReading { get; set; }

    /// <summary>What the input is read from ("a file", "3 blobs", "a named pipe"), once it is open.</summary>
    public string? InputMedium { get; set; }

    /// <summary>Whether any part of the input is compressed.</summary>
    public bool InputCompressed { get; set; }

    /// <summary>Time spent writing checkpoints, the final one included.</summary>
    public TimeSpan Checkpointing { get; set; }
}
