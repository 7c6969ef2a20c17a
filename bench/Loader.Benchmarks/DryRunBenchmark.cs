using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>
/// The loader's own ceiling: a dry run reads, maps, validates and batches the whole input and sends nothing, so
/// it measures the CSV path and the memory the pipeline holds, free of any service. In turns with each run, the same
/// file read by CsvHelper alone (<see cref="CsvBaseline"/>): the loader's CPU per row over that baseline's.
/// </summary>
internal sealed class DryRunBenchmark(BenchSettings settings, TextWriter output)
{
    public const string Command = "dryrun";

    private const double RowsPerSecondTarget = 500_000;
    private const double PeakMiBTarget = 256;
    private const double CpuOverBaselineTarget = 2;

    // Two readings of one peak closer than this agree; further apart, one of them is wrong.
    private const double AgreementMiB = 8;

    public async Task<int> RunAsync(CancellationToken cancellationToken)
    {
        var bench = await BenchRun.StartAsync(
            Command, Invariant($"# Dry run: {settings.Rows:N0} rows x {settings.Columns} columns, {settings.Partitions:N0} partitions, {settings.Repeat} runs"), settings, output, cancellationToken);
        output.WriteLine($"- loader output and reports: {bench.Folder}");
        output.WriteLine();

        output.WriteLine("## Runs");
        var samples = new List<DryRunSample>();
        var baselines = new List<CsvBaselineSample>();
        var floors = new List<CsvBaselineSample>();
        for (var repeat = 1; repeat <= settings.Repeat; repeat++)
        {
            // Turn about: the baselines first on odd repeats, so a machine growing busier favours neither.
            if (repeat % 2 == 1)
            {
                baselines.Add(CsvBaseline.Read(bench.Csv, repeat));
                floors.Add(CsvFloor.Read(bench.Csv, settings.Columns, repeat));
            }

            var reportPath = Path.Combine(bench.Folder, Invariant($"dryrun-{repeat}.json"));
            var run = await LoaderProcess.RunAsync(LoaderArguments.For(bench.Csv, settings, reportPath, connectionString: null), reportPath, Path.ChangeExtension(reportPath, ".log"), cancellationToken);
            var sample = new DryRunSample(repeat, run.Report?.RowsWritten ?? 0, run.Report?.ElapsedSeconds ?? run.WallSeconds, run.Report?.PeakMemoryMiB,
                run.PeakResidentMiB, Math.Round(run.WallSeconds, 3), run.CoresUsed, run.CommandLine, run.Problem(settings.Rows))
            {
                CpuSeconds = run.CpuSeconds,
                Requests = run.Report?.Requests,
            };
            output.WriteLine($"- run {repeat}: `{run.CommandLine}`" + (sample.Problem is { } problem ? " -- INVALID: " + problem : ""));
            samples.Add(sample);
            if (repeat % 2 == 0)
            {
                baselines.Add(CsvBaseline.Read(bench.Csv, repeat));
                floors.Add(CsvFloor.Read(bench.Csv, settings.Columns, repeat));
            }
        }

        var oneRow = await OneRowCpuSecondsAsync(bench, cancellationToken);
        output.WriteLine("- baseline: this process reading the same file with CsvHelper (`CsvReader.Create`, every field `GetString`), one thread, in turns with the loader");
        output.WriteLine("- floor: the same, with the typed columns parsed to their types (`int`/`double.TryParse` on UTF-8) and both keys rendered: the least any loader of this file does");
        output.WriteLine("- start-up: the loader on a file of the header and the first row, once: what a load costs whatever its rows (the host, settings, JIT, reports, exit)");

        output.WriteLine();
        var valid = samples.All(sample => sample.Problem is null);
        valid &= baselines.All(baseline => baseline.Rows == settings.Rows);
        var speeds = samples.Select(sample => sample.RowsPerSecond).ToArray();
        var loaderCpu = Statistics.Median(samples.Select(sample => sample.CpuMicrosecondsPerRow ?? double.NaN));
        var baselineCpu = Statistics.Median(baselines.Select(baseline => baseline.CpuMicrosecondsPerRow ?? double.NaN));
        var targets = new[]
        {
            new TargetCheck("rows/s (median)", Math.Round(Statistics.Median(speeds)), RowsPerSecondTarget, AtLeast: true),
            new TargetCheck("peak RSS MiB (largest)", samples.Max(sample => sample.PeakMiB), PeakMiBTarget, AtLeast: false),
            new TargetCheck("CPU µs/row, loader / CsvHelper alone (medians)", Math.Round(loaderCpu / baselineCpu, 2), CpuOverBaselineTarget, AtLeast: false),
        };
        Print(samples, baselines, targets, valid);
        var floorCpu = Statistics.Median(floors.Select(floor => floor.CpuMicrosecondsPerRow ?? double.NaN));
        var startUp = oneRow is { } seconds ? seconds * 1e6 / settings.Rows : double.NaN;
        output.WriteLine(Invariant($"Where the loader's CPU per row goes (medians): CsvHelper alone {baselineCpu:F2} µs; the floor {floorCpu:F2} µs ({floorCpu / baselineCpu:F2}× CsvHelper alone); the loader {loaderCpu:F2} µs ({loaderCpu / floorCpu:F2}× the floor), of which start-up and exit {startUp:F2} µs ({Format.Number(oneRow, 2)} s of CPU over {settings.Rows:N0} rows): less them, {(loaderCpu - startUp) / baselineCpu:F2}× CsvHelper alone and {(loaderCpu - startUp) / floorCpu:F2}× the floor."));
        output.WriteLine();

        bench.Finish(loadAverage => new DryRunResults(bench.StartedAt, bench.Machine, settings, bench.CommandLine, bench.DataCommandLine, samples, baselines, targets, valid, loadAverage)
        {
            Floors = floors,
            OneRowCpuSeconds = oneRow,
        });
        return BenchExitCodes.Of(valid, targets);
    }

    /// <summary>The loader's CPU for a file of the header and the first data row of the bench's file: its fixed cost.</summary>
    private async Task<double?> OneRowCpuSecondsAsync(BenchRun bench, CancellationToken cancellationToken)
    {
        var path = Path.Combine(bench.Folder, "one-row.csv");
        await File.WriteAllLinesAsync(path, File.ReadLines(bench.Csv).Take(2), cancellationToken);
        var reportPath = Path.Combine(bench.Folder, "dryrun-one-row.json");
        var run = await LoaderProcess.RunAsync(LoaderArguments.For(path, settings, reportPath, connectionString: null), reportPath, Path.ChangeExtension(reportPath, ".log"), cancellationToken);
        output.WriteLine($"- start-up run: `{run.CommandLine}`" + (run.Report?.RowsWritten == 1 ? "" : " -- INVALID: it did not write its one row"));
        return run.Report?.RowsWritten == 1 ? run.CpuSeconds : null;
    }

    private void Print(IReadOnlyList<DryRunSample> samples, IReadOnlyList<CsvBaselineSample> baselines, IReadOnlyList<TargetCheck> targets, bool valid)
    {
        output.WriteLine("## Results");
        var table = new MarkdownTable("run", "rows", "seconds", "rows/s", "peak MiB (report)", "peak MiB (/proc VmHWM)", "wall s", "cores", "CPU µs/row", "batches");
        foreach (var s in samples)
        {
            table.Add(Invariant($"{s.Repeat}"), Format.Number(s.Rows), Format.Number(s.Seconds, 2), Format.Number(s.RowsPerSecond), Format.Number(s.ReportPeakMiB, 1),
                Format.Number(s.PolledPeakMiB, 1), Format.Number(s.WallSeconds, 2), Format.Number(s.Cores, 2), Format.Number(s.CpuMicrosecondsPerRow, 2), Format.Number(s.Requests));
        }

        table.Write(output);
        var baselineTable = new MarkdownTable("CsvHelper alone, run", "rows", "wall s", "rows/s", "CPU µs/row");
        foreach (var b in baselines)
        {
            baselineTable.Add(Invariant($"{b.Repeat}"), Format.Number(b.Rows), Format.Number(b.WallSeconds, 2), Format.Number(b.WallSeconds > 0 ? b.Rows / b.WallSeconds : null), Format.Number(b.CpuMicrosecondsPerRow, 2));
        }

        baselineTable.Write(output);
        output.WriteLine("The loader's CPU counts its whole process, .NET start-up and JIT included; the baseline's only its read, in a process already warm.");
        output.WriteLine();
        var speeds = samples.Select(s => s.RowsPerSecond).ToArray();
        output.WriteLine(Invariant($"rows/s: median {Format.Number(Statistics.Median(speeds))}, min {Format.Number(speeds.Min())}, max {Format.Number(speeds.Max())}"));
        var disagreement = samples.Max(s => s.ReportPeakMiB is { } report && s.PolledPeakMiB is { } polled ? Math.Abs(report - polled) : double.PositiveInfinity);
        output.WriteLine(disagreement <= AgreementMiB
            ? Invariant($"peak RSS: the report and /proc agree within {disagreement:N1} MiB")
            : Invariant($"peak RSS: the report and /proc DISAGREE by up to {disagreement:N1} MiB; the larger is checked"));
        output.WriteLine();

        var checks = new MarkdownTable("target", "value", "target", "result");
        foreach (var target in targets)
        {
            checks.Add(target.Name, Format.Number(target.Value, target.AtLeast ? 0 : 2), target.Target, valid ? target.Result : "INVALID");
        }

        checks.Write(output);
    }
}
