namespace Loader.Benchmarks;

/// <summary>
/// One timed phase of <c>startup</c>: a loader process (its wall time from before it started to its exit, and the times it
/// reached its first log line and its load's start, from its own log) or a raw writer, the Node SDK's or the .NET ceiling (writing only). Rows per
/// second are the input's rows over those seconds for both, so their ratio is the ceiling's seconds over the loader's.
/// </summary>
internal sealed record StartupRun(
    int Repeat, string Name, double Seconds, double? FirstLogSeconds, double? LoadStartingSeconds, double? ReportSeconds, double? CpuSeconds, long Rows, long Stored, string? Problem)
{
    /// <summary>The .NET raw batch ceiling: the loader's own batches through its own adapter, in the benchmark's process.</summary>
    public const string Raw = "raw batch ceiling";

    /// <summary>The baseline: the raw Node SDK writer (bench/node/raw-batch-writer.mjs).</summary>
    public const string Node = "raw Node SDK";

    /// <summary>CPU seconds of the same build's dry run of one row: starting and exiting alone, steadier than wall time on a busy machine.</summary>
    public double? OneRowCpuSeconds { get; init; }

    /// <summary>Wall-clock seconds of that dry run.</summary>
    public double? OneRowSeconds { get; init; }

    public double RowsPerSecond => Seconds > 0 ? Math.Round(Rows / Seconds, 1) : 0;
}
