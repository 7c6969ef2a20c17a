using System.Diagnostics;
using System.Text.Json;
using Loader.Worker.Tests.Infrastructure;
using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>
/// The raw Node SDK writer (bench/node/raw-batch-writer.mjs, @azure/data-tables from tools/node_modules): it builds
/// the CSV's entities before its clock starts and times only the writing, batches of up to 100 per partition, a fixed
/// number in flight. Its node process starts and reads the file untimed, so its rows/s is the SDK's writing alone.
/// </summary>
internal static class NodeRawWriter
{
    private static readonly JsonSerializerOptions s_json = new(JsonSerializerDefaults.Web);

    public static string Script => Path.Combine(RepositoryPaths.Root, "bench", "node", "raw-batch-writer.mjs");

    public static async Task<NodeRawWrite> WriteAsync(string csvPath, string connectionString, string table, int inFlight, CancellationToken cancellationToken)
    {
        var start = new ProcessStartInfo("node") { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = RepositoryPaths.Root };
        foreach (var argument in (string[])[Script, "--input", csvPath, "--connection-string", connectionString, "--table", table, "--in-flight", Invariant($"{inFlight}")])
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start) ?? throw new InvalidOperationException("node did not start");
        var output = process.StandardOutput.ReadToEndAsync(cancellationToken);
        var errors = process.StandardError.ReadToEndAsync(cancellationToken);
        await process.WaitForExitAsync(cancellationToken);
        var printed = (await output).Trim();
        if (process.ExitCode != 0 || printed.Length == 0)
        {
            return new NodeRawWrite(0, 0, 0, 0, Invariant($"{Path.GetFileName(Script)} exited {process.ExitCode}: {(await errors).Trim()}"));
        }

        return JsonSerializer.Deserialize<NodeRawWrite>(printed.Split('\n')[^1], s_json)
            ?? throw new InvalidDataException($"{Path.GetFileName(Script)} printed no result: {printed}");
    }
}

/// <summary>What the Node writer printed: rows, requests, its writing seconds, and the requests that failed.</summary>
internal sealed record NodeRawWrite(long Rows, long Requests, double Seconds, long FailedRequests, string? FirstError);
