using System.Diagnostics;
using Loader.DataGen;
using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>The CSV a benchmark loads: generated once per set of parameters and kept under bench/results/data.</summary>
public static class Dataset
{
    private const int Seed = 42;

    /// <summary>Returns the file for these settings, writing it first when it is not there yet, and the DataGen command that writes the same.</summary>
    public static (string Path, string CommandLine) Ensure(BenchSettings settings, TextWriter output)
    {
        // The generator's build is part of the name: a changed generator must not reuse a file an older one wrote.
        // Deterministic builds keep the module version id stable while the code stays the same.
        var generator = typeof(FlightCsvGenerator).Assembly.ManifestModule.ModuleVersionId.ToString("N")[..8];
        var stem = Invariant($"flights-{settings.Rows}r-{settings.Columns}c-{settings.Partitions}p");
        var path = Path.Combine(BenchPaths.Data, $"{stem}-{generator}.csv");
        var commandLine = CommandLine(settings, path);
        output.WriteLine($"- data: `{commandLine}`");
        if (File.Exists(path))
        {
            output.WriteLine("  (cached)");
            return (path, commandLine);
        }

        Directory.CreateDirectory(BenchPaths.Data);
        foreach (var stale in Directory.EnumerateFiles(BenchPaths.Data, $"{stem}-*.csv"))
        {
            File.Delete(stale); // an older generator's file: large, and never read again
        }

        var options = new GeneratorOptions(settings.Rows, settings.Columns, settings.Partitions, Skew: 0, Seed, Sorted: false, path);
        var started = Stopwatch.StartNew();
        var temporary = path + ".tmp";
        using (var file = File.Create(temporary))
        {
            new FlightCsvGenerator(options).Write(file);
        }

        // Moved into place only when complete: an interrupted run never leaves half a file to be reused.
        File.Move(temporary, path, overwrite: true);
        output.WriteLine(Invariant($"  (generated in {started.Elapsed.TotalSeconds:N1} s, {new FileInfo(path).Length / 1048576.0:N0} MiB)"));
        return (path, commandLine);
    }

    /// <summary>The DataGen command that writes the same file.</summary>
    private static string CommandLine(BenchSettings settings, string path) => ShellText.Join(
    [
        "dotnet", "run", "-c", "Release", "--project", "tools/DataGen", "--",
        "--rows", Invariant($"{settings.Rows}"), "--columns", Invariant($"{settings.Columns}"),
        "--partitions", Invariant($"{settings.Partitions}"), "--seed", Invariant($"{Seed}"), "--output", path,
    ]);
}
