using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text.Json;
using Loader.Worker.Tests.Infrastructure;
using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>The machine a result came from: results from another machine, or from a busy one, do not compare.</summary>
internal sealed record MachineFacts(int Cores, string Cpu, double MemoryGiB, string Os, string Runtime, string Sdk, string Node, string Azurite, string Commit, string LoadAverageAtStart)
{
    public static async Task<MachineFacts> GatherAsync(CancellationToken cancellationToken)
    {
        var cpu = File.ReadLines("/proc/cpuinfo").FirstOrDefault(line => line.StartsWith("model name", StringComparison.Ordinal))?.Split(':', 2)[1].Trim() ?? "unknown";
        var memoryKiB = File.ReadLines("/proc/meminfo").First(line => line.StartsWith("MemTotal:", StringComparison.Ordinal)).Split(' ', StringSplitOptions.RemoveEmptyEntries)[1];
        var commit = await CaptureAsync("git", ["-C", RepositoryPaths.Root, "rev-parse", "--short", "HEAD"], cancellationToken);
        var changes = await CaptureAsync("git", ["-C", RepositoryPaths.Root, "status", "--porcelain", "--untracked-files=no"], cancellationToken);
        return new MachineFacts(
            Environment.ProcessorCount,
            cpu,
            Math.Round(long.Parse(memoryKiB, System.Globalization.CultureInfo.InvariantCulture) / 1048576.0, 1),
            RuntimeInformation.OSDescription,
            RuntimeInformation.FrameworkDescription,
            await CaptureAsync("dotnet", ["--version"], cancellationToken),
            await CaptureAsync("node", ["--version"], cancellationToken),
            AzuriteVersion(),
            changes.Length > 0 ? commit + " with uncommitted changes" : commit,
            LoadAverage());
    }

    /// <summary>The 1, 5 and 15 minute load averages: above the core count, something else competes for the CPU.</summary>
    public static string LoadAverage() => string.Join(' ', File.ReadAllText("/proc/loadavg").Split(' ').Take(3));

    public void Print(TextWriter output)
    {
        output.WriteLine("## Machine");
        output.WriteLine(Invariant($"- {Cores} cores ({Cpu}), {MemoryGiB:N1} GiB, {Os}"));
        output.WriteLine($"- {Runtime} (SDK {Sdk}); node {Node}; Azurite {Azurite}");
        output.WriteLine($"- commit {Commit}; load average at start {LoadAverageAtStart}");
    }

    private static string AzuriteVersion()
    {
        var package = Path.Combine(RepositoryPaths.Tools, "node_modules", "azurite", "package.json");
        if (!File.Exists(package))
        {
            return "(not installed yet)";
        }

        using var document = JsonDocument.Parse(File.ReadAllText(package));
        return document.RootElement.GetProperty("version").GetString() ?? "unknown";
    }

    private static async Task<string> CaptureAsync(string program, string[] arguments, CancellationToken cancellationToken)
    {
        var start = new ProcessStartInfo(program) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        try
        {
            using var process = Process.Start(start);
            if (process is null)
            {
                return "unknown";
            }

            var text = await process.StandardOutput.ReadToEndAsync(cancellationToken);
            await process.WaitForExitAsync(cancellationToken);
            return text.Trim();
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return "not found"; // the program is not on the PATH
        }
    }
}
