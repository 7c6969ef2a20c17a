using System.Diagnostics;
using System.Globalization;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>
/// Parquet files written by DuckDB (tools/duckdb-parquet.mjs, @duckdb/node-api from tools/node_modules): a writer other
/// than the Parquet.Net the loader reads with, laying files out as data tools do (dictionary pages where they pay, its
/// own page and row group sizes, every column optional).
/// </summary>
public static class DuckDbParquet
{
    /// <summary>DuckDB's own row group size, used when none is given.</summary>
    public const int DefaultRowGroupRows = 122_880;

    public static string Script => Path.Combine(RepositoryPaths.Tools, "duckdb-parquet.mjs");

    /// <summary>Writes the rows of <paramref name="select"/> to <paramref name="path"/>, snappy, row groups of <paramref name="rowGroupRows"/> (DuckDB's own when null).</summary>
    public static async Task WriteAsync(string path, int? rowGroupRows, string select, CancellationToken cancellationToken)
    {
        // Any tool's launcher stands for the whole lock file: npm ci installs every package of it.
        await NodeToolProcess.EnsureInstalledAsync("azurite-table", cancellationToken);
        var start = new ProcessStartInfo("node") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false, WorkingDirectory = RepositoryPaths.Tools };
        foreach (var argument in new[] { Script, path, rowGroupRows?.ToString(CultureInfo.InvariantCulture) ?? "default", select })
        {
            start.ArgumentList.Add(argument);
        }

        using var node = Process.Start(start) ?? throw new InvalidOperationException("node did not start");
        var output = node.StandardOutput.ReadToEndAsync(cancellationToken);
        var errors = node.StandardError.ReadToEndAsync(cancellationToken);
        await node.WaitForExitAsync(cancellationToken);
        if (node.ExitCode != 0 || !File.Exists(path))
        {
            throw new InvalidOperationException($"{Path.GetFileName(Script)} exited {node.ExitCode}: {await errors}{await output}");
        }
    }
}
