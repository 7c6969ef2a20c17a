namespace Loader.Benchmarks;

/// <summary>
/// One dry run of the loader: read, map, validate and batch, nothing sent. Its peak memory twice: as the loader
/// reports it about itself, and as VmHWM polled from /proc while it ran (the cross-check). Wall time runs from
/// process start to exit, .NET start-up included; the report's seconds do not.
/// </summary>
internal sealed record DryRunSample(
    int Repeat,
    long Rows,
    double Seconds,
    double? ReportPeakMiB,
    double? PolledPeakMiB,
    double WallSeconds,
    double? Cores,
    string CommandLine,
    string? Problem)
{
    public double RowsPerSecond => Seconds > 0 ? Math.Round(Rows / Seconds, 1) : 0;

    /// <summary>The larger of the two peaks: they measure the same thing, and a limit is about the worse.</summary>
    public double PeakMiB => Math.Max(ReportPeakMiB ?? 0, PolledPeakMiB ?? 0);
}
