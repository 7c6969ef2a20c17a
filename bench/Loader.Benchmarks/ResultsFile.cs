using System.Text.Json;
using Loader.Worker.Reporting;

namespace Loader.Benchmarks;

/// <summary>Writes a run's results as JSON beside the others in bench/results, named by command and time.</summary>
internal static class ResultsFile
{
    public static string Write<T>(string command, DateTimeOffset startedAt, T results)
    {
        Directory.CreateDirectory(BenchPaths.Results);
        var path = Path.Combine(BenchPaths.Results, $"{command}-{BenchPaths.Stamp(startedAt)}.json");
        File.WriteAllText(path, JsonSerializer.Serialize(results, ReportWriter.JsonOptions));
        return path;
    }
}
