using System.Diagnostics;
using Loader.Worker.Tests.Infrastructure;
using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>
/// Adaptive concurrency against a sweep of fixed numbers of batches in flight (2, 4, 8, 16), on skewed flight data into
/// one Azurite each (a fresh one per run, as it slows as it fills): whether the adaptive limit finds the knee — the
/// rows/s of the best Fixed setting without the latency that more in flight than it only adds in queueing. Runs go in
/// turns, each repeat starting with another mode, so a machine growing busier favours none. With more than 50,000 rows
/// the first size measured is 50,000 (a shorter load: the start weighs more), then the whole file.
/// </summary>
internal sealed class ConcurrencyBenchmark(BenchSettings settings, TextWriter output)
{
    public const string Command = "concurrency";

    private const double ThroughputTarget = 0.95;
    private const double P99Target = 1.5;
    private const long ShortLoad = 50_000;

    private static readonly int[] s_fixedLimits = [2, 4, 8, 16];

    public async Task<int> RunAsync(CancellationToken cancellationToken)
    {
        var bench = await BenchRun.StartAsync(
            Command,
            Invariant($"# Concurrency: {settings.Rows:N0} rows x {settings.Columns} columns ({IngestBenchmark.Shape(settings)}), Adaptive up to {settings.Parallel} against Fixed {string.Join('/', s_fixedLimits)}"),
            settings,
            output,
            cancellationToken);
        var sizes = new List<(long Rows, Dataset Data)>();
        if (settings.Rows > ShortLoad)
        {
            sizes.Add((ShortLoad, Dataset.Ensure(settings with { Rows = ShortLoad }, output)));
        }

        sizes.Add((settings.Rows, bench.Data));
        output.WriteLine($"- loader: `dotnet {BenchPaths.LoaderDll} ...`, exactly as printed for each run below, each into a fresh in-memory Azurite {settings.AzuriteRelease ?? "(the release tools/ pins)"}; output and reports in {bench.Folder}");
        output.WriteLine();

        var modes = new List<int?> { null };
        modes.AddRange(s_fixedLimits.Select(limit => (int?)limit));
        var runs = new List<ConcurrencyRun>();
        var targets = new List<TargetCheck>();
        // The bench's first load runs cold (files, caches, the cores' clocks) and came out up to a fifth slower: one load
        // before the measured ones, not counted, so no mode pays for going first.
        output.WriteLine("## Warm-up, not counted");
        await MeasureAsync(s_fixedLimits[0], sizes[0].Rows, sizes[0].Data, repeat: 0, bench, cancellationToken);
        output.WriteLine();
        foreach (var (rows, data) in sizes)
        {
            output.WriteLine(Invariant($"## Runs, {rows:N0} rows"));
            var measured = new List<ConcurrencyRun>();
            for (var repeat = 1; repeat <= settings.Repeat; repeat++)
            {
                // Each repeat starts one mode later.
                for (var i = 0; i < modes.Count; i++)
                {
                    var fixedLimit = modes[(i + repeat - 1) % modes.Count];
                    measured.Add(await MeasureAsync(fixedLimit, rows, data, repeat, bench, cancellationToken));
                }
            }

            output.WriteLine();
            targets.AddRange(Print(rows, measured));
            runs.AddRange(measured);
        }

        var valid = runs.All(run => run.Problem is null);
        output.WriteLine(valid
            ? "Every run exited 0 with no row failed, and left exactly the input's distinct keys in its table."
            : "INVALID: a run failed or lost rows (see the runs above); its numbers mean nothing. Exit code 3.");
        bench.Finish(loadAverage => new ConcurrencyResults(bench.StartedAt, bench.Machine, settings, bench.CommandLine, bench.DataCommandLine, runs, targets, valid, loadAverage));
        return BenchExitCodes.Of(valid, targets);
    }

    private async Task<ConcurrencyRun> MeasureAsync(int? fixedLimit, long rows, Dataset data, int repeat, BenchRun bench, CancellationToken cancellationToken)
    {
        var mode = fixedLimit is { } limit ? Invariant($"Fixed-{limit}") : "Adaptive";
        await using var azurite = await AzuriteProcess.StartAsync(cancellationToken: cancellationToken, release: settings.AzuriteRelease);
        var reportPath = Path.Combine(bench.Folder, Invariant($"{mode.ToLowerInvariant()}-{rows}-{repeat}.json"));
        var runSettings = settings with { Rows = rows, Parallel = fixedLimit ?? settings.Parallel };
        List<string> arguments =
        [
            .. LoaderArguments.For(data.Path, runSettings, reportPath, azurite.ConnectionString),
            $"--Loader:Concurrency={(fixedLimit is null ? "Adaptive" : "Fixed")}",
            "--Loader:ProgressInterval=00:00:01",
        ];
        var run = await LoaderProcess.RunAsync(arguments, reportPath, Path.ChangeExtension(reportPath, ".log"), cancellationToken);
        var clock = Stopwatch.StartNew();
        var stored = await TableCount.CountAsync(azurite.ConnectionString, FlightSchema.Table, cancellationToken);
        var report = run.Report;
        var problem = run.Problem(rows)
            ?? (stored != data.DistinctKeys ? Invariant($"LOST ROWS: the table holds {stored:N0} entities, {data.DistinctKeys:N0} expected") : null);
        var measured = new ConcurrencyRun(
            mode,
            rows,
            repeat,
            run.ExitCode,
            report?.RowsWritten ?? 0,
            report?.RowsFailed ?? 0,
            report?.ElapsedSeconds ?? run.WallSeconds,
            report?.RowsPerSecond ?? 0,
            report?.LatencyMs.P50 ?? 0,
            report?.LatencyMs.P95 ?? 0,
            report?.LatencyMs.P99 ?? 0,
            report?.LatencyMs.Max ?? 0,
            report?.Concurrency.Average ?? 0,
            report?.Requests ?? 0,
            report is null ? [] : Timeline.RowsPerSecondByTenth(report.Timeline),
            stored,
            run.CommandLine,
            problem);
        output.WriteLine($"- {mode}, run {repeat}: `{run.CommandLine}`");
        output.WriteLine(Invariant($"  exit {measured.ExitCode}, {measured.RowsWritten:N0} rows written, {measured.RowsFailed:N0} failed, in {measured.Seconds:N1} s = {measured.RowsPerSecond:N0} rows/s; ")
            + Invariant($"batch latency p50 {measured.P50Ms:N0} ms, p99 {measured.P99Ms:N0} ms, max {measured.MaxMs:N0} ms; {measured.AverageConcurrency:N1} batches in flight on average; ")
            + Invariant($"table holds {stored:N0} of {data.DistinctKeys:N0} (counted in {clock.Elapsed.TotalSeconds:N1} s); load average {MachineFacts.LoadAverage()}")
            + (problem is null ? "" : " -- INVALID: " + problem));
        return measured;
    }

    /// <summary>Prints one size's table and returns its targets: Adaptive against the Fixed setting of the most rows/s.</summary>
    private List<TargetCheck> Print(long rows, List<ConcurrencyRun> runs)
    {
        var runsText = settings.Repeat == 1 ? "1 run each" : Invariant($"median of {settings.Repeat} runs each");
        output.WriteLine(Invariant($"## Results, {rows:N0} rows ({runsText})"));
        var byMode = runs.GroupBy(run => run.Mode)
            .Select(group => (Mode: group.Key, RowsPerSecond: Statistics.Median(group.Select(r => r.RowsPerSecond)), P99: Statistics.Median(group.Select(r => r.P99Ms)), Runs: group.ToList()))
            .ToList();
        var table = new MarkdownTable("mode", "rows/s", "p50 ms", "p95 ms", "p99 ms", "max ms", "in flight (avg)", "rows/request", "rows/s by tenth (first … last)");
        foreach (var (mode, rowsPerSecond, p99, group) in byMode)
        {
            var tenths = Enumerable.Range(0, 10).Select(i => Statistics.Median(group.Select(r => r.RowsPerSecondByTenth.ElementAtOrDefault(i)))).ToList();
            table.Add(
                mode == "Adaptive" ? Invariant($"Adaptive, up to {settings.Parallel}") : mode,
                Format.Number(rowsPerSecond),
                Format.Number(Statistics.Median(group.Select(r => r.P50Ms))),
                Format.Number(Statistics.Median(group.Select(r => r.P95Ms))),
                Format.Number(p99),
                Format.Number(Statistics.Median(group.Select(r => r.MaxMs))),
                Format.Number(Statistics.Median(group.Select(r => r.AverageConcurrency)), 1),
                Format.Number(Statistics.Median(group.Select(r => r.RowsPerRequest)), 1),
                string.Join(' ', tenths.Select(Format.Thousands)));
        }

        table.Write(output);
        var adaptive = byMode.Single(mode => mode.Mode == "Adaptive");
        var best = byMode.Where(mode => mode.Mode != "Adaptive").MaxBy(mode => mode.RowsPerSecond);
        var targets = new List<TargetCheck>
        {
            new(Invariant($"{rows:N0} rows: rows/s, Adaptive / {best.Mode} (the best Fixed)"), Math.Round(adaptive.RowsPerSecond / best.RowsPerSecond, 3), ThroughputTarget, AtLeast: true),
            new(Invariant($"{rows:N0} rows: p99 batch latency, Adaptive / {best.Mode}"), Math.Round(adaptive.P99 / best.P99, 3), P99Target, AtLeast: false),
        };
        var valid = runs.All(run => run.Problem is null);
        var checks = new MarkdownTable("ratio", "value", "target", "result");
        foreach (var target in targets)
        {
            checks.Add(target.Name, Format.Number(target.Value, 3), target.Target, valid ? target.Result : "INVALID");
        }

        checks.Write(output);
        return targets;
    }
}

/// <summary>One load of the concurrency benchmark.</summary>
internal sealed record ConcurrencyRun(
    string Mode,
    long InputRows,
    int Repeat,
    int ExitCode,
    long RowsWritten,
    long RowsFailed,
    double Seconds,
    double RowsPerSecond,
    double P50Ms,
    double P95Ms,
    double P99Ms,
    double MaxMs,
    double AverageConcurrency,
    long Requests,
    IReadOnlyList<double> RowsPerSecondByTenth,
    long Stored,
    string CommandLine,
    string? Problem)
{
    public double RowsPerRequest => Requests > 0 ? (double)RowsWritten / Requests : 0;
}

/// <summary>What <c>concurrency</c> writes to bench/results/concurrency-&lt;time&gt;.json.</summary>
internal sealed record ConcurrencyResults(
    DateTimeOffset StartedAt,
    MachineFacts Machine,
    BenchSettings Settings,
    string CommandLine,
    string DataCommandLine,
    IReadOnlyList<ConcurrencyRun> Runs,
    IReadOnlyList<TargetCheck> Targets,
    bool Valid,
    string LoadAverageAtEnd);
