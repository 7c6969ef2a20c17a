using System.Diagnostics;
using System.Text.Json;
using Loader.DataGen;
using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>The CSV a benchmark loads, generated once per set of parameters and kept under bench/results/data with what it holds.</summary>
/// <param name="Path">The file.</param>
/// <param name="CommandLine">The DataGen command that writes the same file.</param>
/// <param name="Data">What it holds: rows, partitions, and the rows repeating an earlier key (the table ends with one entity per distinct key).</param>
internal sealed record Dataset(string Path, string CommandLine, GeneratedData Data)
{
    private const int Seed = 42;

    /// <summary>Entities a table holds once every row is written: one per distinct key.</summary>
    public long DistinctKeys => Data.Rows - Data.DuplicateRows;

    /// <summary>Returns the file for these settings, writing it first when it is not there yet.</summary>
    public static Dataset Ensure(BenchSettings settings, TextWriter output)
    {
        // The generator's build is part of the name: a changed generator must not reuse a file an older one wrote.
        // Deterministic builds keep the module version id stable while the code stays the same.
        var generator = typeof(FlightCsvGenerator).Assembly.ManifestModule.ModuleVersionId.ToString("N")[..8];
        var stem = settings.Shape == DataShape.Skewed
            ? Invariant($"flights-skewed-{settings.Rows}r-{settings.Columns}c")
            : Invariant($"flights-{settings.Rows}r-{settings.Columns}c-{settings.Partitions}p");
        var path = System.IO.Path.Combine(BenchPaths.Data, $"{stem}-{generator}.csv");
        var facts = path + ".json";
        var commandLine = DataGenCommandLine(settings, path);
        output.WriteLine($"- data: `{commandLine}`");
        if (File.Exists(path) && File.Exists(facts))
        {
            var cached = JsonSerializer.Deserialize<GeneratedData>(File.ReadAllText(facts))!;
            output.WriteLine("  (cached) " + Describe(cached));
            return new Dataset(path, commandLine, cached);
        }

        Directory.CreateDirectory(BenchPaths.Data);
        foreach (var stale in Directory.EnumerateFiles(BenchPaths.Data, $"{stem}-*.csv*"))
        {
            File.Delete(stale); // an older generator's file: large, and never read again
        }

        var options = settings.Shape == DataShape.Skewed
            ? GeneratorOptions.Skewed(settings.Rows, settings.Columns, Seed, path)
            : new GeneratorOptions(settings.Rows, settings.Columns, settings.Partitions, Skew: 0, Seed, Sorted: false, path);
        var started = Stopwatch.StartNew();
        var temporary = path + ".tmp";
        GeneratedData data;
        using (var file = File.Create(temporary))
        {
            data = new FlightCsvGenerator(options).Write(file);
        }

        // Moved into place only when complete: an interrupted run never leaves half a file to be reused.
        File.WriteAllText(facts, JsonSerializer.Serialize(data));
        File.Move(temporary, path, overwrite: true);
        output.WriteLine(Invariant($"  (generated in {started.Elapsed.TotalSeconds:N1} s, {new FileInfo(path).Length / 1048576.0:N0} MiB) ") + Describe(data));
        return new Dataset(path, commandLine, data);
    }

    private static string Describe(GeneratedData data) =>
        Invariant($"{data.Partitions:N0} partitions of {data.SmallestPartition:N0} to {data.LargestPartition:N0} rows, {data.DuplicateRows:N0} rows repeating an earlier key");

    /// <summary>The DataGen command that writes the same file.</summary>
    private static string DataGenCommandLine(BenchSettings settings, string path) => ShellText.Join(
    [
        "dotnet", "run", "-c", "Release", "--project", "tools/DataGen", "--",
        "--rows", Invariant($"{settings.Rows}"), "--columns", Invariant($"{settings.Columns}"),
        .. settings.Shape == DataShape.Skewed ? (string[])["--shape", "skewed"] : ["--partitions", Invariant($"{settings.Partitions}")],
        "--seed", Invariant($"{Seed}"), "--output", path,
    ]);
}
