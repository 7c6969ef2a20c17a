using System.Diagnostics;
using Loader.ThrottlingSimulator;
using Loader.Worker.Outcomes;
using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>
/// Running at the rate the service allows: the loader through the throttling simulator (Cosmos DB for Table's RU
/// budget and 429s in front of Azurite), at default settings and, for comparison, with a fixed 32 batches in
/// flight; then the same load into Cosmos DB for NoSQL through the real SDK, against the Cosmos DB stand-in with
/// the same budget and cost per row. The budget B is the baseline: each default load should use nearly all of it
/// with few 429s and lose nothing.
/// </summary>
internal sealed class ThrottleBenchmark(BenchSettings settings, TextWriter output)
{
    public const string Command = "throttle";

    /// <summary>In flight for the comparison: what a user raises the parallelism to when a load seems slow.</summary>
    private const int FixedParallel = 32;

    private const double BudgetTargetPercent = 95;
    private const double ThrottledTargetPercent = 2;

    /// <summary>The pace has settled once every progress interval delivers at least this share of the budget...</summary>
    public const double SettledFraction = 0.9;

    /// <summary>
    /// ... with at most this share of its requests throttled. At the defaults an interval holds 30 to 40 requests,
    /// and a probe for more budget costs a 429 or two of them; a storm of 429s that keeps the bucket empty is not a pace.
    /// </summary>
    public const double SettledThrottledShare = 0.1;

    private const string ProgressInterval = "00:00:05";

    public async Task<int> RunAsync(CancellationToken cancellationToken)
    {
        var bench = await BenchRun.StartAsync(
            Command,
            Invariant($"# Throttle: {settings.Rows:N0} rows x {settings.Columns} columns ({IngestBenchmark.Shape(settings)}), budget B = {settings.Budget:N0} RU/s at {settings.RuPerKilobyte} RU per started KiB"),
            settings,
            output,
            cancellationToken);
        var folder = bench.Folder;
        output.WriteLine(Invariant($"- service: for each Table run a fresh in-memory Azurite behind the throttling simulator in this process (`--ru-per-second {settings.Budget} --burst-seconds 1 --ru-per-kb {settings.RuPerKilobyte}`), the table counted on Azurite afterwards; for the Cosmos DB run a fresh cosmosdb-server behind the Cosmos DB stand-in in this process (same budget, burst and cost per KiB; the loader in Gateway mode), the items counted as the stand-in created them"));
        output.WriteLine($"- loader: `dotnet {BenchPaths.LoaderDll} ...`, exactly as printed for each run below; its output and report are in {folder}");
        output.WriteLine();

        output.WriteLine("## Runs");
        async Task<IThrottledService> Tables(CancellationToken token) => await ThrottledService.StartAsync(settings, token);
        var adaptive = await MeasureAsync(Invariant($"default (Adaptive, --parallel {settings.Parallel})"), "adaptive", Tables, settings, [], mustThrottle: true, bench.Data, folder, cancellationToken);
        var fixedRun = await MeasureAsync(Invariant($"Fixed, --parallel {FixedParallel}"), "fixed", Tables, settings with { Parallel = FixedParallel }, ["--Loader:Concurrency=Fixed"], mustThrottle: false, bench.Data, folder, cancellationToken);
        var cosmos = await MeasureAsync(
            Invariant($"Cosmos DB default (TransactionalBatch, Adaptive, --parallel {settings.Parallel})"), "cosmos",
            async token => await CosmosThrottledService.StartAsync(settings, "TransactionalBatch", token), settings, [], mustThrottle: true, bench.Data, folder, cancellationToken);
        output.WriteLine();

        TargetCheck[] targets = [.. Targets(adaptive, ""), .. Targets(cosmos, "Cosmos DB: ")];
        var valid = adaptive.Problem is null && fixedRun.Problem is null && cosmos.Problem is null;
        ThrottlePrinter.Print(output, settings, [adaptive, fixedRun, cosmos], fixedRun, targets, valid);

        bench.Finish(loadAverage => new ThrottleResults(bench.StartedAt, bench.Machine, settings, bench.CommandLine, bench.DataCommandLine, adaptive, fixedRun, cosmos, targets, valid, loadAverage));
        return BenchExitCodes.Of(valid, targets);
    }

    private static IEnumerable<TargetCheck> Targets(ThrottleRun run, string prefix) =>
    [
        new TargetCheck(prefix + "RU/s over the load, % of B", run.PercentOfBudget, BudgetTargetPercent, AtLeast: true),
        new TargetCheck(prefix + "429s, % of requests", run.ThrottledPercent, ThrottledTargetPercent, AtLeast: false),
        new TargetCheck(prefix + "rows lost", run.RowsLost, 0, AtLeast: false),
        new TargetCheck(prefix + "report counts differing from the service's", run.CountsDiffering, 0, AtLeast: false),
    ];

    private async Task<ThrottleRun> MeasureAsync(
        string name,
        string file,
        Func<CancellationToken, Task<IThrottledService>> start,
        BenchSettings run,
        IReadOnlyList<string> extra,
        bool mustThrottle,
        Dataset data,
        string folder,
        CancellationToken cancellationToken)
    {
        await using var service = await start(cancellationToken);
        var reportPath = Path.Combine(folder, file + ".json");
        List<string> arguments =
        [
            .. LoaderArguments.For(data.Path, run, reportPath, service.LoaderArguments),
            "--Loader:Retry:MaxAttempts=10", // the default, spelled out: the Fixed run's failed rows depend on it
            $"--Loader:ProgressInterval={ProgressInterval}",
            .. extra,
        ];
        var storeCpu = new CpuMeter(service.StorePid);
        var simulatorCpu = new CpuMeter(Environment.ProcessId);
        var loader = await LoaderProcess.RunAsync(arguments, reportPath, Path.ChangeExtension(reportPath, ".log"), cancellationToken);
        var (storeCores, simulatorCores) = (storeCpu.CoresUsed(), simulatorCpu.CoresUsed());
        var counted = service.Counted();
        output.WriteLine($"- {name}, into {service.Description}: `{loader.CommandLine}`");

        var clock = Stopwatch.StartNew();
        var stored = await service.CountStoredAsync(cancellationToken);

        var report = loader.Report;
        var timeline = report?.Timeline ?? [];
        var seconds = report?.ElapsedSeconds ?? loader.WallSeconds;
        var settled = PaceSeries.Settled(timeline, settings.Budget, SettledFraction, SettledThrottledShare);

        // The default run's series in full (about every 10 s); the comparison's shorter.
        var step = PaceSeries.Step(seconds, mustThrottle ? 45 : 12, 10);
        var measured = new ThrottleRun
        {
            Name = name,
            CommandLine = loader.CommandLine,
            LogPath = loader.LogPath,
            ExitCode = loader.ExitCode,
            Outcome = report?.Outcome.ToString(),
            Seconds = seconds,
            Budget = settings.Budget,
            Expected = data.DistinctKeys,
            RowsWritten = report?.RowsWritten ?? 0,
            RowsFailed = report?.RowsFailed ?? 0,
            Stored = stored,
            Simulator = counted,
            ReportRequests = report?.Requests,
            ReportThrottled = report?.Throttled,
            ReportRequestCharge = report?.RequestCharge,
            Concurrency = report?.Concurrency,
            PacedRequestUnitsPerSecond = report?.PacedRequestUnitsPerSecond,
            StoreCores = storeCores,
            LoaderCores = loader.CoresUsed,
            SimulatorCores = simulatorCores,
            WindowSeconds = step,
            Windows = PaceSeries.Windows(timeline, step),
            SettledAfterSeconds = settled?.Seconds,
            ThrottledBeforeSettled = settled?.ThrottledBefore ?? counted.Throttled,
            Problem = Problem(loader, counted, stored, mustThrottle),
        };

        var unreported = measured.RowsLost - measured.RowsFailed;
        output.WriteLine(Invariant($"  {measured.RowsWritten:N0} rows written, {measured.RowsFailed:N0} failed, in {seconds:N1} s; the store holds {stored ?? 0:N0} of {data.DistinctKeys:N0} (counted in {clock.Elapsed.TotalSeconds:N1} s); ")
            + Invariant($"the service (simulator or stand-in) saw {counted.Requests:N0} batches, answered {counted.Throttled:N0} with 429 and charged {counted.RequestChargeTotal:N0} RU")
            + (unreported > 0 ? Invariant($" -- {unreported:N0} rows MISSING that the loader did not report failed") : "")
            + (measured.Problem is { } problem ? " -- INVALID: " + problem : ""));
        return measured;
    }

    /// <summary>Why a run measured nothing. Failed rows are a result (of the Fixed run, say), not a broken measurement.</summary>
    private static string? Problem(LoaderRun loader, SimulatorStatsSnapshot counted, long? stored, bool mustThrottle) => loader.Report switch
    {
        null => $"the loader exited with {loader.ExitCode} and wrote no report (see {loader.LogPath})",
        var report when loader.ExitCode is not (ExitCodes.Success or ExitCodes.RowsFailed) =>
            $"the loader exited with {loader.ExitCode}: {report.Outcome} {report.Message} (see {loader.LogPath})",
        { Reconciled: false } => $"the loader's counts do not reconcile (see {loader.LogPath})",
        _ when stored is null => "the table or container was never created",
        _ when counted.UpstreamFailures > 0 => Invariant($"the store did not answer {counted.UpstreamFailures:N0} forwarded batches"),
        _ when mustThrottle && counted.Throttled == 0 =>
            "not one 429: the budget never limited the load, so it measured Azurite, not throttling (more --rows or a lower --budget)",
        _ => null,
    };
}
