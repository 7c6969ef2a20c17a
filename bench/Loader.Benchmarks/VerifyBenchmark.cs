using System.Text.Json;
using Loader.Worker.Reporting;
using Loader.Worker.Tests.Infrastructure;
using Loader.Worker.Verify;
using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>
/// <c>verify</c> against the load it checks: the flights loaded into a fresh Azurite by the loader's own process, then
/// verified by another, in the same run and on the same Azurite, so the machine's load weighs on both alike. Target:
/// verify's rows per second at least the load's (both over the loader's own elapsed time, start-up left out).
/// </summary>
internal sealed class VerifyBenchmark(BenchSettings settings, TextWriter output)
{
    public const string Command = "verify";

    private const double Target = 1.0;

    public async Task<int> RunAsync(CancellationToken cancellationToken)
    {
        var bench = await BenchRun.StartAsync(
            Command, Invariant($"# Verify against load: {settings.Rows:N0} rows x {settings.Columns} columns ({IngestBenchmark.Shape(settings)}) into Azurite"), settings, output, cancellationToken);
        output.WriteLine($"- loader: `dotnet {BenchPaths.LoaderDll} ...`, exactly as printed below, load then verify on one fresh in-memory Azurite; output and reports in {bench.Folder}");
        output.WriteLine();
        output.WriteLine("## Runs");
        var runs = new List<VerifyBenchRun>();
        for (var repeat = 1; repeat <= settings.Repeat; repeat++)
        {
            runs.Add(await MeasureAsync(bench, repeat, cancellationToken));
        }

        output.WriteLine();
        var valid = runs.All(run => run.Problem is null);
        var ratio = new TargetCheck("verify rows/s / load rows/s", Math.Round(Statistics.Median(runs.Select(run => run.Ratio)), 3), Target, AtLeast: true);
        var table = new MarkdownTable("run", "load rows/s", "verify rows/s", "verify / load", "verify requests", "verify peak MiB");
        foreach (var run in runs)
        {
            table.Add(Invariant($"{run.Repeat}"), Format.Number(run.LoadRowsPerSecond), Format.Number(run.VerifyRowsPerSecond), Format.Number(run.Ratio, 3), Format.Number(run.VerifyRequests), Format.Number(run.VerifyPeakMiB));
        }

        table.Write(output);
        var checks = new MarkdownTable("ratio", "value", "target", "result");
        checks.Add(ratio.Name, Format.Number(ratio.Value, 3), ratio.Target, valid ? ratio.Result : "INVALID");
        checks.Write(output);
        output.WriteLine(valid
            ? "Every load exited 0 with every row written or superseded, and every verify found the table as the load left it (exit 0)."
            : "INVALID: a load or a verify failed (see the runs above); its numbers mean nothing. Exit code 3.");
        bench.Finish(loadAverage => new VerifyBenchResults(bench.StartedAt, bench.Machine, settings, bench.CommandLine, bench.DataCommandLine, runs, ratio, valid, loadAverage));
        return BenchExitCodes.Of(valid, [ratio]);
    }

    private async Task<VerifyBenchRun> MeasureAsync(BenchRun bench, int repeat, CancellationToken cancellationToken)
    {
        await using var azurite = await AzuriteProcess.StartAsync(cancellationToken: cancellationToken, release: settings.AzuriteRelease);
        var reportPath = Path.Combine(bench.Folder, Invariant($"load-{repeat}.json"));
        var arguments = LoaderArguments.For(bench.Csv, settings, reportPath, azurite.ConnectionString);
        var load = await LoaderProcess.RunAsync(arguments, reportPath, Path.ChangeExtension(reportPath, ".log"), cancellationToken);
        output.WriteLine($"- load {repeat}: `{load.CommandLine}`");
        output.WriteLine(Invariant($"  exit {load.ExitCode}, {load.Report?.RowsWritten ?? 0:N0} rows written in {load.Report?.ElapsedSeconds ?? 0:N1} s = {load.Report?.RowsPerSecond ?? 0:N0} rows/s; load average {MachineFacts.LoadAverage()}"));

        var verifyPath = Path.ChangeExtension(reportPath, ".verify.json");
        var check = await LoaderProcess.RunAsync(["verify", .. arguments], verifyPath, Path.ChangeExtension(verifyPath, ".log"), cancellationToken, readReport: false);
        var verified = File.Exists(verifyPath) ? JsonSerializer.Deserialize<VerifyReport>(File.ReadAllText(verifyPath), ReportWriter.JsonOptions) : null;
        var problem = load.Problem(settings.Rows)
            ?? (verified is null ? $"verify exited {check.ExitCode} with no report (see {check.LogPath})"
            : check.ExitCode != 0 ? $"verify exited {check.ExitCode}: {verified.Message} (see {check.LogPath})"
            : verified.RowsRead != settings.Rows ? Invariant($"verify read {verified.RowsRead:N0} rows, not {settings.Rows:N0}")
            : null);
        var run = new VerifyBenchRun(
            repeat,
            load.Report?.RowsPerSecond ?? 0,
            load.Report?.ElapsedSeconds ?? 0,
            verified?.RowsPerSecond ?? 0,
            verified?.ElapsedSeconds ?? 0,
            verified?.Requests ?? 0,
            verified?.PeakMemoryMiB ?? 0,
            load.CommandLine,
            check.CommandLine,
            problem);
        output.WriteLine($"- verify {repeat}: `{check.CommandLine}`");
        output.WriteLine(Invariant($"  exit {check.ExitCode}, {verified?.RowsRead ?? 0:N0} rows read, {verified?.RowsMatching ?? 0:N0} matching, {verified?.EntitiesRead ?? 0:N0} entities of {verified?.Partitions ?? 0:N0} partitions read back in {verified?.Requests ?? 0:N0} requests, in {run.VerifySeconds:N1} s = {run.VerifyRowsPerSecond:N0} rows/s; ")
            + Invariant($"verify / load {run.Ratio:N3}; load average {MachineFacts.LoadAverage()}")
            + (problem is null ? "" : " -- INVALID: " + problem));
        return run;
    }
}

/// <summary>One load and its verify.</summary>
internal sealed record VerifyBenchRun(
    int Repeat,
    double LoadRowsPerSecond,
    double LoadSeconds,
    double VerifyRowsPerSecond,
    double VerifySeconds,
    long VerifyRequests,
    double VerifyPeakMiB,
    string LoadCommandLine,
    string VerifyCommandLine,
    string? Problem)
{
    public double Ratio => LoadRowsPerSecond > 0 ? VerifyRowsPerSecond / LoadRowsPerSecond : 0;
}

/// <summary>What <c>verify</c> writes to bench/results/verify-&lt;time&gt;.json.</summary>
internal sealed record VerifyBenchResults(
    DateTimeOffset StartedAt,
    MachineFacts Machine,
    BenchSettings Settings,
    string CommandLine,
    string DataCommandLine,
    IReadOnlyList<VerifyBenchRun> Runs,
    TargetCheck Target,
    bool Valid,
    string LoadAverageAtEnd);
