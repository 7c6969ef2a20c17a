using System.Diagnostics;
using Loader.Worker.Tests.Infrastructure;
using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>
/// Adaptive concurrency against a fixed number of batches in flight, on a long skewed load into one Azurite each (a
/// fresh one per run, as it slows as it fills): whether the adaptive limit keeps the rows/s of Fixed while cutting the
/// latency that only queueing added. Runs alternate, so a machine growing busier favours neither.
/// </summary>
internal sealed class ConcurrencyBenchmark(BenchSettings settings, TextWriter output)
{
    public const string Command = "concurrency";

    private const double ThroughputTarget = 0.95;
    private const double P99Target = 0.25;

    public async Task<int> RunAsync(CancellationToken cancellationToken)
    {
        var bench = await BenchRun.StartAsync(
            Command,
            Invariant($"# Concurrency: {settings.Rows:N0} rows x {settings.Columns} columns ({IngestBenchmark.Shape(settings)}), Adaptive against Fixed at {settings.Parallel}"),
            settings,
            output,
            cancellationToken);
        output.WriteLine($"- loader: `dotnet {BenchPaths.LoaderDll} ...`, exactly as printed for each run below, each into a fresh in-memory Azurite {settings.AzuriteRelease ?? "(the release tools/ pins)"}; output and reports in {bench.Folder}");
        output.WriteLine();
        output.WriteLine("## Runs");
        var pairs = new List<(ConcurrencyRun Adaptive, ConcurrencyRun Fixed)>();
        for (var repeat = 1; repeat <= settings.Repeat; repeat++)
        {
            // Alternating order: the first of each pair is the other mode each time.
            ConcurrencyRun adaptive, fixedRun;
            if (repeat % 2 == 1)
            {
                adaptive = await MeasureAsync("Adaptive", repeat, bench, cancellationToken);
                fixedRun = await MeasureAsync("Fixed", repeat, bench, cancellationToken);
            }
            else
            {
                fixedRun = await MeasureAsync("Fixed", repeat, bench, cancellationToken);
                adaptive = await MeasureAsync("Adaptive", repeat, bench, cancellationToken);
            }

            pairs.Add((adaptive, fixedRun));
        }

        output.WriteLine();
        var valid = pairs.All(pair => pair.Adaptive.Problem is null && pair.Fixed.Problem is null);
        var targets = new[]
        {
            new TargetCheck("rows/s, Adaptive / Fixed", Math.Round(Statistics.Median(pairs.Select(p => p.Adaptive.RowsPerSecond / p.Fixed.RowsPerSecond)), 3), ThroughputTarget, AtLeast: true),
            new TargetCheck("p99 batch latency, Adaptive / Fixed", Math.Round(Statistics.Median(pairs.Select(p => p.Adaptive.P99Ms / p.Fixed.P99Ms)), 3), P99Target, AtLeast: false),
        };
        Print(pairs, targets, valid);
        bench.Finish(loadAverage => new ConcurrencyResults(bench.StartedAt, bench.Machine, settings, bench.CommandLine, bench.DataCommandLine, pairs.Select(p => p.Adaptive).Concat(pairs.Select(p => p.Fixed)).ToList(), targets, valid, loadAverage));
        return BenchExitCodes.Of(valid, targets);
    }

    private async Task<ConcurrencyRun> MeasureAsync(string mode, int repeat, BenchRun bench, CancellationToken cancellationToken)
    {
        await using var azurite = await AzuriteProcess.StartAsync(cancellationToken: cancellationToken, release: settings.AzuriteRelease);
        var reportPath = Path.Combine(bench.Folder, Invariant($"{mode.ToLowerInvariant()}-{repeat}.json"));
        List<string> arguments =
        [
            .. LoaderArguments.For(bench.Csv, settings, reportPath, azurite.ConnectionString),
            $"--Loader:Concurrency={mode}",
            "--Loader:ProgressInterval=00:00:01",
        ];
        var run = await LoaderProcess.RunAsync(arguments, reportPath, Path.ChangeExtension(reportPath, ".log"), cancellationToken);
        var clock = Stopwatch.StartNew();
        var stored = await TableCount.CountAsync(azurite.ConnectionString, FlightSchema.Table, cancellationToken);
        var report = run.Report;
        var problem = run.Problem(settings.Rows)
            ?? (stored != bench.Data.DistinctKeys ? Invariant($"LOST ROWS: the table holds {stored:N0} entities, {bench.Data.DistinctKeys:N0} expected") : null);
        var measured = new ConcurrencyRun(
            mode,
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
            + Invariant($"table holds {stored:N0} of {bench.Data.DistinctKeys:N0} (counted in {clock.Elapsed.TotalSeconds:N1} s)")
            + (problem is null ? "" : " -- INVALID: " + problem));
        output.WriteLine($"  rows/s by tenth of the rows, as the table fills: {string.Join(' ', measured.RowsPerSecondByTenth.Select(Format.Thousands))}");
        return measured;
    }

    private void Print(List<(ConcurrencyRun Adaptive, ConcurrencyRun Fixed)> pairs, IReadOnlyList<TargetCheck> targets, bool valid)
    {
        var runs = pairs.Count == 1 ? "1 pair of runs" : Invariant($"median of {pairs.Count} pairs");
        output.WriteLine($"## Results ({runs})");
        var table = new MarkdownTable("mode", "rows/s", "p50 ms", "p95 ms", "p99 ms", "max ms", "in flight (avg)", "rows/request", "rows/s by tenth (first … last)");
        foreach (var mode in new[] { pairs.Select(p => p.Adaptive).ToList(), pairs.Select(p => p.Fixed).ToList() })
        {
            var tenths = Enumerable.Range(0, 10).Select(i => Statistics.Median(mode.Select(r => r.RowsPerSecondByTenth.ElementAtOrDefault(i)))).ToList();
            table.Add(
                mode[0].Mode == "Fixed" ? Invariant($"Fixed, {settings.Parallel} in flight") : Invariant($"Adaptive, up to {settings.Parallel}"),
                Format.Number(Statistics.Median(mode.Select(r => r.RowsPerSecond))),
                Format.Number(Statistics.Median(mode.Select(r => r.P50Ms))),
                Format.Number(Statistics.Median(mode.Select(r => r.P95Ms))),
                Format.Number(Statistics.Median(mode.Select(r => r.P99Ms))),
                Format.Number(Statistics.Median(mode.Select(r => r.MaxMs))),
                Format.Number(Statistics.Median(mode.Select(r => r.AverageConcurrency)), 1),
                Format.Number(Statistics.Median(mode.Select(r => r.RowsPerRequest)), 1),
                string.Join(' ', tenths.Select(Format.Thousands)));
        }

        table.Write(output);
        var checks = new MarkdownTable("ratio (paired runs, median)", "value", "target", "result");
        foreach (var target in targets)
        {
            checks.Add(target.Name, Format.Number(target.Value, 3), target.Target, valid ? target.Result : "INVALID");
        }

        checks.Write(output);
        output.WriteLine(valid
            ? "Every run exited 0 with no row failed, and left exactly the input's distinct keys in its table."
            : "INVALID: a run failed or lost rows (see the runs above); its numbers mean nothing. Exit code 3.");
    }
}

/// <summary>One load of the concurrency benchmark.</summary>
internal sealed record ConcurrencyRun(
    string Mode,
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
