using System.Diagnostics;
using System.IO.Compression;
using Loader.Worker.Inputs;
using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>
/// The dry run on one CSV as it is, gzip-compressed and Zstandard-compressed, in turns in one run: rows/s of each and
/// its ratio to the plain file's, and what share of the loader's CPU decompressing takes (the same file decompressed
/// by the loader's own part stream to nowhere, single-threaded, over the CPU the whole dry run of it used).
/// </summary>
internal sealed class CompressedInputBenchmark(BenchSettings settings, TextWriter output)
{
    public const string Command = "compressed";

    private static readonly InputCompression[] s_codecs = [InputCompression.None, InputCompression.Gzip, InputCompression.Zstd];

    public async Task<int> RunAsync(CancellationToken cancellationToken)
    {
        var bench = await BenchRun.StartAsync(
            Command, Invariant($"# Compressed input: dry run of {settings.Rows:N0} rows x {settings.Columns} columns, plain, .gz and .zst, {settings.Repeat} runs of each"), settings, output, cancellationToken);
        var inputs = s_codecs.ToDictionary(codec => codec, codec => Ensure(bench.Csv, codec));
        output.WriteLine($"- loader output and reports: {bench.Folder}");
        output.WriteLine();

        output.WriteLine("## Runs");
        var samples = new List<CompressedSample>();
        for (var repeat = 1; repeat <= settings.Repeat; repeat++)
        {
            // Each round starts with another input, so a machine that gets busier during the run favours none.
            foreach (var codec in s_codecs.Skip((repeat - 1) % s_codecs.Length).Concat(s_codecs.Take((repeat - 1) % s_codecs.Length)))
            {
                var reportPath = Path.Combine(bench.Folder, Invariant($"{codec}-{repeat}.json"));
                var run = await LoaderProcess.RunAsync(LoaderArguments.For(inputs[codec], settings, reportPath, connectionString: null), reportPath, Path.ChangeExtension(reportPath, ".log"), cancellationToken);
                var decode = codec == InputCompression.None ? 0 : DecompressionCpuSeconds(inputs[codec], codec);
                var sample = new CompressedSample(codec, repeat, new FileInfo(inputs[codec]).Length, run.Report?.RowsWritten ?? 0, run.Report?.ElapsedSeconds ?? run.WallSeconds,
                    run.CpuSeconds, decode, run.Report?.PeakMemoryMiB, run.CommandLine, run.Problem(settings.Rows));
                output.WriteLine($"- {codec} run {repeat}: `{run.CommandLine}`" + (sample.Problem is { } problem ? " -- INVALID: " + problem : ""));
                samples.Add(sample);
            }
        }

        output.WriteLine();
        var valid = samples.All(sample => sample.Problem is null);
        Print(samples, valid);
        bench.Finish(loadAverage => new CompressedResults(bench.StartedAt, bench.Machine, settings, bench.CommandLine, bench.DataCommandLine, samples, valid, loadAverage));
        return valid ? BenchExitCodes.TargetsMet : BenchExitCodes.Invalid;
    }

    private void Print(IReadOnlyList<CompressedSample> samples, bool valid)
    {
        output.WriteLine("## Results" + (valid ? "" : " (INVALID: see the runs)"));
        var plain = Statistics.Median(samples.Where(s => s.Codec == InputCompression.None).Select(s => s.RowsPerSecond));
        var table = new MarkdownTable("input", "bytes", "rows/s (median)", "runs", "vs plain", "loader CPU s (median)", "decompression CPU s", "decompression share of CPU", "peak MiB");
        foreach (var codec in s_codecs)
        {
            var runs = samples.Where(s => s.Codec == codec).ToList();
            var speed = Statistics.Median(runs.Select(s => s.RowsPerSecond));
            var cpu = Statistics.Median(runs.Select(s => s.CpuSeconds));
            var decode = Statistics.Median(runs.Select(s => s.DecompressionCpuSeconds));
            table.Add(codec == InputCompression.None ? "plain" : codec.ToString(), Format.Number(runs[0].Bytes), Format.Number(speed),
                string.Join(" · ", runs.Select(s => Format.Number(s.RowsPerSecond))), Format.Number(speed / plain, 2), Format.Number(cpu, 2),
                Format.Number(decode, 2), cpu is > 0 ? Invariant($"{decode / cpu:P1}") : "-", Format.Number(runs.Max(s => s.PeakMiB ?? 0), 1));
        }

        table.Write(output);
        output.WriteLine();
    }

    /// <summary>The file compressed with <paramref name="codec"/> beside it, made once (default levels: gzip 6, zstd 3).</summary>
    private string Ensure(string csv, InputCompression codec)
    {
        if (codec == InputCompression.None)
        {
            return csv;
        }

        var path = csv + (codec == InputCompression.Gzip ? ".gz" : ".zst");
        if (!File.Exists(path))
        {
            var started = Stopwatch.StartNew();
            var temporary = path + ".tmp";
            using (var source = File.OpenRead(csv))
            using (var target = File.Create(temporary))
            using (var encoder = codec == InputCompression.Gzip
                ? new GZipStream(target, CompressionLevel.Optimal)
                : (Stream)new ZstdSharp.CompressionStream(target, level: 3))
            {
                source.CopyTo(encoder, 1 << 20);
            }

            File.Move(temporary, path);
            output.WriteLine(Invariant($"  ({codec} file written in {started.Elapsed.TotalSeconds:N1} s)"));
        }

        output.WriteLine(Invariant($"- {codec}: {path} ({new FileInfo(path).Length / 1048576.0:N1} MiB, {new FileInfo(csv).Length / (double)new FileInfo(path).Length:N1}x smaller)"));
        return path;
    }

    /// <summary>CPU seconds this process spends decompressing the file through the loader's own part stream, to nowhere.</summary>
    private static double DecompressionCpuSeconds(string path, InputCompression codec)
    {
        using var process = Process.GetCurrentProcess();
        var before = process.TotalProcessorTime;
        using (var text = new LocalFilePart(path, new FileInfo(path).Length) { Compression = codec }.Open(256 * 1024))
        {
            var buffer = new byte[256 * 1024];
            while (text.Read(buffer) > 0)
            {
            }
        }

        process.Refresh();
        return (process.TotalProcessorTime - before).TotalSeconds;
    }
}

/// <summary>One dry run of one form of the input.</summary>
internal sealed record CompressedSample(
    InputCompression Codec,
    int Repeat,
    long Bytes,
    long Rows,
    double Seconds,
    double? CpuSeconds,
    double DecompressionCpuSeconds,
    double? PeakMiB,
    string CommandLine,
    string? Problem)
{
    public double RowsPerSecond => Seconds > 0 ? Math.Round(Rows / Seconds, 1) : 0;
}

/// <summary>What <c>compressed</c> writes to bench/results/compressed-&lt;time&gt;.json.</summary>
internal sealed record CompressedResults(
    DateTimeOffset StartedAt,
    MachineFacts Machine,
    BenchSettings Settings,
    string CommandLine,
    string DataCommandLine,
    IReadOnlyList<CompressedSample> Runs,
    bool Valid,
    string LoadAverageAtEnd);
