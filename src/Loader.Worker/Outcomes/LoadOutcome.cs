using Loader.Worker.Reporting;

namespace Loader.Worker.Outcomes;

/// <summary>How a load ended and, unless it completed, why: the report's <c>outcome</c>, <c>exitCode</c> and <c>message</c>.</summary>
internal sealed record LoadOutcome(LoadOutcomeKind Kind, string? Message = null)
{
    public static readonly LoadOutcome Completed = new(LoadOutcomeKind.Completed);

    /// <summary>The report's <c>outcome</c>: the kind by name, but <c>Failed</c> for each reason a load could not start or go on, as users have always read it.</summary>
    public ReportOutcome Name => Kind switch
    {
        LoadOutcomeKind.Completed => ReportOutcome.Completed,
        LoadOutcomeKind.CompletedWithFailures => ReportOutcome.CompletedWithFailures,
        LoadOutcomeKind.RejectLimitExceeded => ReportOutcome.RejectLimitExceeded,
        LoadOutcomeKind.Stopped => ReportOutcome.Stopped,
        LoadOutcomeKind.CheckpointLost => ReportOutcome.CheckpointLost,
        LoadOutcomeKind.OutputFailed => ReportOutcome.OutputFailed,
        LoadOutcomeKind.TargetDiffers => ReportOutcome.TargetDiffers,
        LoadOutcomeKind.InvalidConfiguration or LoadOutcomeKind.Unavailable or LoadOutcomeKind.InputDamaged or LoadOutcomeKind.UnexpectedError => ReportOutcome.Failed,
        _ => throw new ArgumentOutOfRangeException(nameof(Kind), Kind, "an outcome with no name in the report"),
    };

    /// <summary>The exit code this outcome means.</summary>
    public int ExitCode => ExitCodes.Of(Kind);

    /// <summary>The outcome as the report records it.</summary>
    public ReportedOutcome Reported => new(Name, ExitCode, Message);
}
