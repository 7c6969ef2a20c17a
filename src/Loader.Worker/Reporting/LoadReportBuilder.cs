using Loader.Worker.Configuration;
using Loader.Worker.Outputs;

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
        };
    }

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

    /// <summary>The input's stored size, once it is open.</summary>
    public long? InputBytes { get; set; }
}
