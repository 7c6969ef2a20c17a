using System.Text.Json;
using Loader.ThrottlingSimulator;
using Loader.Worker.Reporting;
using Loader.Worker.Shards.Status;
using Loader.Worker.Tests.Infrastructure;
using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>
/// A sharded load by 1, 2 and 3 <c>work</c> processes against a Table endpoint that holds every batch a fixed time (the
/// throttling simulator in instant mode with <c>--latency-ms</c>), so that each worker is bound by latency, with a fixed
/// number of batches in flight, not by CPU: what one worker adds is then what the design adds. Shard queue and state on
/// Azurite's Queue and Blob services. Rows/s from <c>status</c> (first shard's start to last shard's end); target: N
/// workers at least 0.8 × N × one worker's rows/s.
/// </summary>
internal sealed class ScaleOutBenchmark(BenchSettings settings, TextWriter output)
{
    public const string Command = "scaleout";
    private const int LatencyMs = 50;
    private const int Shards = 12;
    private const double ScalingTarget = 0.8;
    private static readonly int[] s_workers = [1, 2, 3];

    public async Task<int> RunAsync(CancellationToken cancellationToken)
    {
        var bench = await BenchRun.StartAsync(
            Command, Invariant($"# Scale out: {settings.Rows:N0} rows x {settings.Columns} columns ({settings.Shape}), {Shards} range shards, 1-3 work processes, --parallel {settings.Parallel} (Fixed) each, every batch held {LatencyMs} ms, {settings.Repeat} run(s) of each"),
            settings, output, cancellationToken);
        output.WriteLine($"- loader output and reports: {bench.Folder}");
        output.WriteLine();

        await using var azurite = await AzuriteProcess.StartAsync(withQueue: true, cancellationToken: cancellationToken);
        await using var endpoint = await SimulatorHost.StartAsync(new SimulatorOptions { Instant = true, RuPerSecond = 0, Port = 0, LatencyMs = LatencyMs }, cancellationToken);
        var tables = "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;"
            + $"AccountKey={AzuriteProcess.DevelopmentAccountKey};TableEndpoint={endpoint.TableEndpoint().AbsoluteUri.TrimEnd('/')}";
        var targetBytes = Math.Max(64 * 1024, new FileInfo(bench.Csv).Length / Shards + 1);

        output.WriteLine("## Runs");
        var samples = new List<ScaleOutSample>();
        for (var repeat = 1; repeat <= settings.Repeat; repeat++)
        {
            // Turn about, so a machine that gets busier during the run favours neither end.
            foreach (var workers in repeat % 2 == 1 ? s_workers : s_workers.Reverse())
            {
                endpoint.Reset();
                samples.Add(await MeasureAsync(workers, repeat, azurite, tables, targetBytes, bench, cancellationToken));
            }
        }

        output.WriteLine();
        var valid = samples.All(sample => sample.Problem is null);
        double Median(int workers) => Statistics.Median(samples.Where(sample => sample.Workers == workers).Select(sample => sample.RowsPerSecond));
        var one = Median(1);
        var targets = s_workers.Where(workers => workers > 1)
            .Select(workers => new TargetCheck(Invariant($"{workers} workers / ({workers} x 1 worker)"), Math.Round(Median(workers) / (workers * one), 2), ScalingTarget, AtLeast: true))
            .ToList();
        Print(samples, one, targets, valid);
        bench.Finish(loadAverage => new ScaleOutResults(bench.StartedAt, bench.Machine, settings, bench.CommandLine, bench.DataCommandLine, samples, targets, valid, loadAverage));
        return BenchExitCodes.Of(valid, targets);
    }

    private async Task<ScaleOutSample> MeasureAsync(int workers, int repeat, AzuriteProcess azurite, string tables, long targetBytes, BenchRun bench, CancellationToken cancellationToken)
    {
        var name = Invariant($"w{workers}-r{repeat}");
        var statusPath = Path.Combine(bench.Folder, name + "-status.json");
        // The verbs write no load report (status writes its own, read below): nothing for the runner to read.
        var noReport = Path.Combine(bench.Folder, name + "-none.json");
        var arguments = LoaderArguments.For(bench.Csv, settings, statusPath, tables).Concat(
        [
            $"--Loader:Blob:ConnectionString={azurite.ConnectionString}",
            $"--Loader:Shards:State={azurite.BlobEndpoint}/state/{name}/",
            $"--Loader:Shards:Queue={azurite.QueueEndpoint}/{name}",
            Invariant($"--Loader:Shards:TargetBytes={targetBytes}"),
            "--Loader:Shards:PollInterval=00:00:01",
            "--Loader:Concurrency=Fixed",
        ]).ToList();

        var plan = await LoaderProcess.RunAsync(["plan", .. arguments], noReport, Path.Combine(bench.Folder, name + "-plan.log"), cancellationToken);
        var runs = await Task.WhenAll(Enumerable.Range(1, workers).Select(worker =>
            LoaderProcess.RunAsync(["work", .. arguments], noReport, Path.Combine(bench.Folder, Invariant($"{name}-work{worker}.log")), cancellationToken)));
        var status = await LoaderProcess.RunAsync(["status", .. arguments], noReport, Path.Combine(bench.Folder, name + "-status.log"), cancellationToken);
        var merged = File.Exists(statusPath) ? JsonSerializer.Deserialize<LoadStatus>(await File.ReadAllTextAsync(statusPath, cancellationToken), ReportWriter.JsonOptions) : null;

        var problem = plan.ExitCode != 0 ? $"plan exited with {plan.ExitCode} (see {plan.LogPath})"
            : runs.FirstOrDefault(run => run.ExitCode != 0) is { } failed ? $"a worker exited with {failed.ExitCode} (see {failed.LogPath})"
            : merged is not { Complete: true, Reconciled: true } ? $"status is not complete and reconciled (see {status.LogPath})"
            : merged.RowsWritten + merged.RowsSuperseded != settings.Rows ? Invariant($"status counts {merged.RowsWritten:N0} written and {merged.RowsSuperseded:N0} superseded of {settings.Rows:N0}")
            : null;
        var sample = new ScaleOutSample(
            workers, repeat, merged?.RowsWritten ?? 0, merged?.ElapsedSeconds ?? 0, merged?.RowsPerSecond ?? 0, runs.Max(run => run.WallSeconds),
            runs.Sum(run => run.CpuSeconds ?? 0), merged?.Requests ?? 0, merged?.WorstP99LatencyMs ?? 0, string.Join(" ", "dotnet Loader.Worker.dll work", ShellText.Join(arguments)), problem);
        output.WriteLine($"- {workers} worker(s), run {repeat}: {sample.RowsPerSecond:N0} rows/s" + (problem is null ? "" : " -- INVALID: " + problem));
        return sample;
    }

    private void Print(IReadOnlyList<ScaleOutSample> samples, double one, IReadOnlyList<TargetCheck> targets, bool valid)
    {
        output.WriteLine("## Results");
        var table = new MarkdownTable("workers", "run", "rows written", "seconds", "rows/s", "x 1 worker", "per worker vs 1", "workers' CPU s", "requests", "worst p99 ms");
        foreach (var s in samples)
        {
            table.Add(
                Invariant($"{s.Workers}"), Invariant($"{s.Run}"), Invariant($"{s.RowsWritten:N0}"), Invariant($"{s.Seconds:N1}"), Invariant($"{s.RowsPerSecond:N0}"),
                one > 0 ? Invariant($"{s.RowsPerSecond / one:0.00}") : "-", one > 0 ? Invariant($"{s.RowsPerSecond / (s.Workers * one):0.00}") : "-",
                Invariant($"{s.CpuSeconds:N1}"), Invariant($"{s.Requests:N0}"), Invariant($"{s.WorstP99Ms:N0}"));
        }

        table.Write(output);
        output.WriteLine();
        var checks = new MarkdownTable("target", "value", "bound", "result");
        foreach (var target in targets)
        {
            checks.Add(target.Name, Invariant($"{target.Value:0.00}"), target.Target, target.Result);
        }

        checks.Write(output);
        output.WriteLine();
        output.WriteLine(valid ? "Every run complete and reconciled." : "INVALID: a run did not complete (see above).");
    }
}

internal sealed record ScaleOutSample(
    int Workers, int Run, long RowsWritten, double Seconds, double RowsPerSecond, double WallSeconds, double CpuSeconds, long Requests, double WorstP99Ms, string CommandLine, string? Problem);

internal sealed record ScaleOutResults(
    DateTimeOffset StartedAt, MachineFacts Machine, BenchSettings Settings, string CommandLine, string DataCommandLine,
    IReadOnlyList<ScaleOutSample> Samples, IReadOnlyList<TargetCheck> Targets, bool Valid, string LoadAverage);
