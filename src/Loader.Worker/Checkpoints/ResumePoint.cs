using Loader.Worker.Inputs;

namespace Loader.Worker.Checkpoints;

/// <summary>Where this run starts: after the records an earlier run settled (none for a fresh load), and what it is tied to.</summary>
/// <param name="SkipRecords">Well-formed records before the watermark, all settled: skipped without being mapped.</param>
/// <param name="HighestSentBefore">The highest record the earlier run sent: under Insert, a conflict on a record up to here is the earlier run's own write.</param>
/// <param name="Input">The input this load reads.</param>
/// <param name="Settings">The settings that tie the checkpoint to this load.</param>
internal sealed record ResumePoint(long SkipRecords, long HighestSentBefore, InputIdentity Input, IReadOnlyDictionary<string, string> Settings)
{
    public bool Resumed => SkipRecords > 0 || Window is not null;

    /// <summary>The first record not known to be settled when the run began (the checkpoint's watermark).</summary>
    public long ResumedAt { get; init; } = SkipRecords + 1;

    /// <summary>The records after the watermark the earlier run had read, of which only the pending ones are sent again; null when it recorded none.</summary>
    public ResumeWindow? Window { get; init; }

    /// <summary>The input's parts as this run found them, for its checkpoints.</summary>
    public IReadOnlyList<InputPartState> Parts { get; init; } = [];

    /// <summary>The input's fingerprint up to <see cref="SkipRecords"/>, where this run starts reading; null when it keeps none or skips nothing.</summary>
    public PrefixMark? SkippedTo { get; init; }

    /// <summary>The marks of the earlier run's fingerprint still to pass as the records after <see cref="SkipRecords"/> are read; null when none are.</summary>
    public PrefixCheck? Check { get; init; }
}
