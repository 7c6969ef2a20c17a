using Loader.Worker.Reporting;

namespace Loader.Benchmarks;

/// <summary>
/// What one loader process did: its exit code and JSON report, and what the kernel saw of it: wall time from start
/// to exit (.NET start-up included, unlike the report's elapsed time), VmHWM polled from /proc while it ran (a
/// cross-check of the report's own peak), and the user and system CPU time it used. <paramref name="StartedAt"/> is the
/// wall-clock time just before the process was started, to set the loader's own log timestamps against.
/// </summary>
internal sealed record LoaderRun(int ExitCode, LoadReport? Report, double WallSeconds, double? PeakResidentMiB, double? CpuSeconds, string CommandLine, string LogPath, DateTimeOffset StartedAt)
{
    public double? CoresUsed => CpuSeconds is { } cpu && WallSeconds > 0 ? Math.Round(cpu / WallSeconds, 2) : null;

    /// <summary>
    /// Why the run cannot be trusted, or null. Every row must be written or superseded: a row repeating the keys of an
    /// earlier one in the same batch replaces it (superseded), in a later batch it is written again.
    /// </summary>
    public string? Problem(long expectedRows) => Report switch
    {
        null => $"the loader exited with {ExitCode} and wrote no report (see {LogPath})",
        _ when ExitCode != 0 => $"the loader exited with {ExitCode}: {Report.Outcome} {Report.Message} (see {LogPath})",
        { RowsWritten: var written, RowsSuperseded: var superseded } when written + superseded != expectedRows =>
            FormattableString.Invariant($"the loader reports {written:N0} rows written and {superseded:N0} superseded of {expectedRows:N0} (see {LogPath})"),
        { Reconciled: false } => $"the loader's counts do not reconcile (see {LogPath})",
        _ => null,
    };
}
