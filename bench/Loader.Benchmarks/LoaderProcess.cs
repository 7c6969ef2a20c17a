using System.Diagnostics;
using Loader.Worker.Reporting;

namespace Loader.Benchmarks;

/// <summary>Runs the built loader in its own process, as an operator would, polling its peak memory and CPU time while it runs.</summary>
internal static class LoaderProcess
{
    /// <summary>The runtime setting of the young generation's size, as the image sets it: see the Dockerfile.</summary>
    public const string ContainerGen0SizeVariable = "DOTNET_GCgen0size";

    public const string ContainerGen0Size = "0x6000000";

    private static readonly TimeSpan s_pollInterval = TimeSpan.FromMilliseconds(50);

    /// <summary>
    /// The loader's output goes to <paramref name="logPath"/>; its report to <paramref name="reportPath"/>, which must be among the arguments.
    /// <paramref name="loaderDll"/> runs another build of the loader (an earlier commit's) instead of this one's.
    /// </summary>
    /// <paramref name="readReport"/> false leaves a report that is no load's (a verify's) for the caller to read.
    /// <paramref name="environment"/> adds variables to the loader's environment (runtime knobs such as <c>DOTNET_TieredPGO</c>).
    public static async Task<LoaderRun> RunAsync(
        IReadOnlyList<string> arguments, string reportPath, string logPath, CancellationToken cancellationToken, string? loaderDll = null, bool readReport = true,
        IReadOnlyDictionary<string, string>? environment = null)
    {
        loaderDll ??= BenchPaths.LoaderDll;
        if (!File.Exists(loaderDll))
        {
            throw new FileNotFoundException("The loader is not built: run dotnet build -c Release first.", loaderDll);
        }

        File.Delete(reportPath); // a report left by an earlier run must not pass for this one's
        var start = new ProcessStartInfo("dotnet")
        {
            UseShellExecute = false,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[name] = value;
        }

        // The young generation the container image sets (Dockerfile), unless this run sets its own (0: the runtime's default).
        start.Environment.TryAdd(ContainerGen0SizeVariable, ContainerGen0Size);
        start.ArgumentList.Add(loaderDll);
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using var log = new StreamWriter(logPath);
        void Append(string? line)
        {
            if (line is not null)
            {
                lock (log)
                {
                    log.WriteLine(line);
                }
            }
        }

        var startedAt = DateTimeOffset.UtcNow;
        var clock = Stopwatch.StartNew();
        using var process = Process.Start(start) ?? throw new InvalidOperationException("dotnet did not start");
        process.OutputDataReceived += (_, e) => Append(e.Data);
        process.ErrorDataReceived += (_, e) => Append(e.Data);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        double? peak = null, cpu = null;
        try
        {
            var exited = process.WaitForExitAsync(cancellationToken);
            while (!exited.IsCompleted)
            {
                // VmHWM only grows, so the last reading is the peak, short of the final poll interval.
                peak = ProcFs.PeakResidentMiB(process.Id) ?? peak;
                cpu = ProcFs.CpuSeconds(process.Id) ?? cpu;
                await Task.WhenAny(exited, Task.Delay(s_pollInterval, cancellationToken));
            }

            await exited;
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            process.WaitForExit();
            throw;
        }

        var wallSeconds = clock.Elapsed.TotalSeconds;
        process.WaitForExit(); // the output read asynchronously has reached the log
        var report = readReport && File.Exists(reportPath) ? ReportWriter.Read(reportPath) : null;
        return new LoaderRun(
            process.ExitCode, report, wallSeconds, peak, cpu, $"{ContainerGen0SizeVariable}={start.Environment[ContainerGen0SizeVariable]} " + ShellText.Join(["dotnet", .. start.ArgumentList]), logPath, startedAt);
    }
}
