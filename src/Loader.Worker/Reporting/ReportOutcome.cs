namespace Loader.Worker.Reporting;

/// <summary>
/// The report's <c>outcome</c>, written by name: the words users and scripts read. Each load outcome has one
/// (<c>Outcomes/LoadOutcome.Name</c>); the reasons a load could not start or go on all read <see cref="Failed"/>, and
/// the exit code tells them apart.
/// </summary>
internal enum ReportOutcome
{
    Completed,
    CompletedWithFailures,
    RejectLimitExceeded,
    Stopped,
    CheckpointLost,
    OutputFailed,
    Failed,

    /// <summary>A verify report's: the target is not as the load leaves it.</summary>
    TargetDiffers,
}
