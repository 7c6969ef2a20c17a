using System.Text.Json;

namespace Loader.Benchmarks;

/// <summary>
/// When a loader process reached its steps, in seconds from the moment before it was started, read from its own JSON
/// log (millisecond timestamps, UTC, the same clock as the benchmark's): its first log line (host built, settings bound
/// and checked, the outputs' preflight under way), and the load's "starting" line, which it writes after the input is
/// open with its header read and the target checked (the process's first request, the table's create-if-missing), just
/// before the first batch can leave.
/// </summary>
internal sealed record StartupTimes(double? FirstLogSeconds, double? LoadStartingSeconds)
{
    private const string PipelineCategory = "Loader.Worker.Pipeline.LoadPipeline";

    public static StartupTimes Read(string logPath, DateTimeOffset processStarted)
    {
        double? first = null, starting = null;
        foreach (var line in File.ReadLines(logPath))
        {
            if (!line.StartsWith('{'))
            {
                continue; // the summary, written as text
            }

            using var entry = JsonDocument.Parse(line);
            var root = entry.RootElement;
            if (!root.TryGetProperty("Timestamp", out var stamp) || !stamp.TryGetDateTimeOffset(out var at))
            {
                continue;
            }

            var seconds = Math.Round((at - processStarted).TotalSeconds, 3);
            first ??= seconds;
            if (starting is null && root.GetProperty("Category").GetString() == PipelineCategory
                && root.GetProperty("Message").GetString() is { } message && message.Contains(" starting: ", StringComparison.Ordinal))
            {
                starting = seconds;
            }
        }

        return new StartupTimes(first, starting);
    }
}
