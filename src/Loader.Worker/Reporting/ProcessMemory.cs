namespace Loader.Worker.Reporting;

/// <summary>What the loader process holds in memory, for the report.</summary>
internal static class ProcessMemory
{
    /// <summary>The most resident memory the process has held so far, in MiB.</summary>
    public static double PeakWorkingSetMiB()
    {
        using var process = System.Diagnostics.Process.GetCurrentProcess();
        return process.PeakWorkingSet64 / (1024.0 * 1024.0);
    }
}
