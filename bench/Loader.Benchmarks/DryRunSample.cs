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

    /// <summary>User and system CPU of the whole loader process, start-up included.</summary>
    public double? CpuSeconds { get; init; }

    /// <summary>Batches the dry run formed: the requests a load would send.</summary>
    public long? Requests { get; init; }

    public double? CpuMicrosecondsPerRow => CpuSeconds is { } cpu && Rows > 0 ? Math.Round(cpu * 1e6 / Rows, 3) : null;

    /// <summary>The larger of the two peaks: they measure the same thing, and a limit is about the worse.</summary>
    public double PeakMiB => Math.Max(ReportPeakMiB ?? 0, PolledPeakMiB ?? 0);
}
