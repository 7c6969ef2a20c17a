using System.Diagnostics;
using Loader.Worker.Tests.Infrastructure;
using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>
/// The dry run of the same rows held as CSV, JSON Lines and Parquet, in turns in one run: rows/s, CPU µs per row and peak
/// resident memory of each, and against the targets: JSON Lines at least 0.5x the CSV's rows/s, Parquet at least 1.0x,
/// Parquet's peak memory under 2x the CSV's. The Parquet is written as two tools write it by default (snappy, dictionary
/// pages where they pay): pyarrow's layout by Arrow's own writer (<see cref="ArrowParquetWriter"/>: 1,048,576-row groups of
/// 1 MiB pages) and DuckDB's (122,880-row groups, a page per column chunk); and, without a target, DuckDB's with row groups
/// of 1,048,576 rows, whose pages of 8-10 MiB each column holds decompressed while it is read.
/// </summary>
internal sealed class FormatsBenchmark(BenchSettings settings, TextWriter output)
{
    public const string Command = "formats";

    private const int LargeRowGroupRows = ArrowParquetWriter.RowGroupRows;

    private static readonly string[] s_formats = ["csv", "jsonl", "parquet", "parquet-small", "parquet-large-pages"];

    // The Parquet layouts the targets are held to: those the tools write by default.
    private static readonly string[] s_targeted = ["parquet", "parquet-small"];

    private static readonly Dictionary<string, string> s_labels = new(StringComparer.Ordinal)
    {
        ["csv"] = "CSV",
        ["jsonl"] = "JSON Lines",
        ["parquet"] = Invariant($"Parquet, pyarrow's default ({LargeRowGroupRows:N0}-row groups, 1 MiB pages; Arrow's writer)"),
        ["parquet-small"] = Invariant($"Parquet, DuckDB's default ({DuckDbParquet.DefaultRowGroupRows:N0}-row groups)"),
        ["parquet-large-pages"] = Invariant($"Parquet, DuckDB with {LargeRowGroupRows:N0}-row groups (a page per column chunk)"),
    };

    public async Task<int> RunAsync(CancellationToken cancellationToken)
    {
        var bench = await BenchRun.StartAsync(
            Command, Invariant($"# Input formats: dry run of {settings.Rows:N0} rows x {settings.Columns} columns as CSV, JSON Lines and Parquet, {settings.Repeat} runs of each"), settings, output, cancellationToken);
        var types = FlightSchema.ColumnTypes(settings.Columns);
        var inputs = new Dictionary<string, string>
        {
            ["csv"] = bench.Csv,
            ["jsonl"] = await EnsureAsync(bench.Csv, ".jsonl", path => { FlightFileConverter.ToJsonLines(bench.Csv, path, types); return Task.CompletedTask; }),
            ["parquet"] = await EnsureAsync(bench.Csv, Invariant($".arrow-{LargeRowGroupRows}.parquet"), path => { ArrowParquetWriter.Write(bench.Csv, path, types); return Task.CompletedTask; }),
            ["parquet-small"] = await EnsureAsync(bench.Csv, Invariant($".{DuckDbParquet.DefaultRowGroupRows}.parquet"), path => DuckDbParquet.WriteAsync(path, rowGroupRows: null, FlightFileConverter.DuckDbSelect(bench.Csv, types), cancellationToken)),
            ["parquet-large-pages"] = await EnsureAsync(bench.Csv, Invariant($".{LargeRowGroupRows}.parquet"), path => DuckDbParquet.WriteAsync(path, LargeRowGroupRows, FlightFileConverter.DuckDbSelect(bench.Csv, types), cancellationToken)),
        };
        output.WriteLine($"- loader output and reports: {bench.Folder}");
        output.WriteLine();

        output.WriteLine("## Runs");
        var samples = new List<FormatSample>();
        for (var repeat = 1; repeat <= settings.Repeat; repeat++)
        {
            // Each round starts with another format, so a machine that gets busier during the run favours none.
            foreach (var format in s_formats.Skip((repeat - 1) % s_formats.Length).Concat(s_formats.Take((repeat - 1) % s_formats.Length)))
            {
                var reportPath = Path.Combine(bench.Folder, Invariant($"{format}-{repeat}.json"));
                var run = await LoaderProcess.RunAsync(LoaderArguments.For(inputs[format], settings, reportPath, connectionString: null), reportPath, Path.ChangeExtension(reportPath, ".log"), cancellationToken);
                var sample = new FormatSample(format, repeat, new FileInfo(inputs[format]).Length, run.Report?.RowsWritten ?? 0, run.Report?.ElapsedSeconds ?? run.WallSeconds,
                    run.CpuSeconds, run.PeakResidentMiB, run.CommandLine, run.Problem(settings.Rows));
                output.WriteLine($"- {format} run {repeat}: `{run.CommandLine}`" + (sample.Problem is { } problem ? " -- INVALID: " + problem : ""));
                samples.Add(sample);
            }
        }

        output.WriteLine();
        // A format the loader does not read yet leaves its runs invalid; the others are still compared.
        var valid = samples.Where(sample => sample.Format != "jsonl").All(sample => sample.Problem is null);
        var met = Print(samples);
        bench.Finish(loadAverage => new FormatsResults(bench.StartedAt, bench.Machine, settings, bench.CommandLine, bench.DataCommandLine, samples, valid, loadAverage));
        return !valid ? BenchExitCodes.Invalid : met ? BenchExitCodes.TargetsMet : BenchExitCodes.TargetMissed;
    }

    private bool Print(IReadOnlyList<FormatSample> samples)
    {
        output.WriteLine("## Results");
        var table = new MarkdownTable("input", "bytes", "rows/s (median)", "runs", "vs CSV", "CPU µs/row (median)", "peak RSS MiB (max)");
        double Speed(string format) => Statistics.Median(samples.Where(s => s.Format == format && s.Problem is null).Select(s => s.RowsPerSecond).DefaultIfEmpty(0));
        double Peak(string format) => samples.Where(s => s.Format == format && s.Problem is null).Select(s => s.PeakMiB ?? 0).DefaultIfEmpty(0).Max();
        var csv = Speed("csv");
        foreach (var format in s_formats)
        {
            var runs = samples.Where(s => s.Format == format).ToList();
            table.Add(s_labels[format], Format.Number(runs[0].Bytes), Format.Number(Speed(format)), string.Join(" · ", runs.Select(s => s.Problem is null ? Format.Number(s.RowsPerSecond) : "invalid")),
                Format.Number(csv > 0 ? Speed(format) / csv : 0, 2), Format.Number(Statistics.Median(runs.Where(s => s.Problem is null).Select(s => s.CpuMicrosecondsPerRow).DefaultIfEmpty(0)), 2),
                Format.Number(Peak(format), 1));
        }

        table.Write(output);
        output.WriteLine();
        var checks = new List<(string Name, bool? Met, string Detail)>
        {
            ("JSON Lines rows/s >= 0.5x CSV", Speed("jsonl") > 0 ? Speed("jsonl") >= 0.5 * csv : null, Invariant($"{(csv > 0 ? Speed("jsonl") / csv : 0):N2}x")),
        };
        foreach (var parquet in s_targeted)
        {
            checks.Add((Invariant($"{s_labels[parquet]} rows/s >= 1.0x CSV"), Speed(parquet) >= csv, Invariant($"{(csv > 0 ? Speed(parquet) / csv : 0):N2}x")));
            checks.Add((Invariant($"{s_labels[parquet]} peak memory < 2x CSV"), Peak(parquet) < 2 * Peak("csv"), Invariant($"{(Peak("csv") > 0 ? Peak(parquet) / Peak("csv") : 0):N2}x")));
        }

        foreach (var (name, met, detail) in checks)
        {
            output.WriteLine($"- {name}: {detail} {(met switch { true => "PASS", false => "FAIL", null => "NOT RUN (the loader did not read this format)" })}");
        }

        foreach (var untargeted in s_formats.Where(format => format.StartsWith("parquet", StringComparison.Ordinal) && !s_targeted.Contains(format)))
        {
            output.WriteLine(Invariant($"- {s_labels[untargeted]}, no target: rows/s {(csv > 0 ? Speed(untargeted) / csv : 0):N2}x CSV, peak memory {(Peak("csv") > 0 ? Peak(untargeted) / Peak("csv") : 0):N2}x"));
        }

        return checks.All(check => check.Met != false);
    }

    /// <summary>The CSV written again in another format beside it, made once.</summary>
    private async Task<string> EnsureAsync(string csv, string extension, Func<string, Task> write)
    {
        var path = csv + extension;
        if (!File.Exists(path))
        {
            var started = Stopwatch.StartNew();
            var temporary = path + ".tmp" + extension;
            await write(temporary);
            File.Move(temporary, path);
            output.WriteLine(Invariant($"  ({extension} file written in {started.Elapsed.TotalSeconds:N1} s)"));
        }

        output.WriteLine(Invariant($"- {extension}: {path} ({new FileInfo(path).Length / 1048576.0:N1} MiB)"));
        return path;
    }
}

/// <summary>One dry run of one format of the input.</summary>
internal sealed record FormatSample(string Format, int Repeat, long Bytes, long Rows, double Seconds, double? CpuSeconds, double? PeakMiB, string CommandLine, string? Problem)
{
    public double RowsPerSecond => Seconds > 0 ? Math.Round(Rows / Seconds, 1) : 0;

    public double CpuMicrosecondsPerRow => CpuSeconds is { } cpu && Rows > 0 ? Math.Round(cpu * 1e6 / Rows, 2) : 0;
}

/// <summary>What <c>formats</c> writes to bench/results/formats-&lt;time&gt;.json.</summary>
internal sealed record FormatsResults(
    DateTimeOffset StartedAt,
    MachineFacts Machine,
    BenchSettings Settings,
    string CommandLine,
    string DataCommandLine,
    IReadOnlyList<FormatSample> Runs,
    bool Valid,
    string LoadAverageAtEnd);
