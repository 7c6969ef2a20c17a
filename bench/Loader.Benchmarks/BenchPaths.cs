using Loader.Worker.Tests.Infrastructure;

namespace Loader.Benchmarks;

/// <summary>Where the benchmarks find the loader and keep what they make (bench/results is ignored by git).</summary>
internal static class BenchPaths
{
    public static string Results => Path.Combine(RepositoryPaths.Root, "bench", "results");

    /// <summary>Generated CSVs, kept between runs: the big ones take a while to write.</summary>
    public static string Data => Path.Combine(Results, "data");

    /// <summary>The loader as <c>dotnet build -c Release</c> leaves it: benchmarks measure what ships, not a Debug build.</summary>
    public static string LoaderDll => Path.Combine(RepositoryPaths.Root, "src", "Loader.Worker", "bin", "Release", "net10.0", "Loader.Worker.dll");

    /// <summary>A folder for one benchmark run's child reports and logs.</summary>
    public static string NewRunFolder(string command, DateTimeOffset startedAt)
    {
        var folder = Path.Combine(Results, "runs", $"{command}-{Stamp(startedAt)}");
        Directory.CreateDirectory(folder);
        return folder;
    }

    public static string Stamp(DateTimeOffset time) =>
        time.UtcDateTime.ToString("yyyyMMdd'T'HHmmss'Z'", System.Globalization.CultureInfo.InvariantCulture);
}
