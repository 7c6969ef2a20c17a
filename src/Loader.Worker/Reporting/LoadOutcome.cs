namespace Loader.Worker.Reporting;

/// <summary>How a load (or a verb of a sharded load) ended, said as what happened; the host turns it into an exit code.</summary>
internal enum LoadOutcomeKind
{
    /// <summary>Every row was written, superseded, or rejected within <c>Loader:MaxRejects</c>.</summary>
    Completed,

    /// <summary>The input was read to its end, but some rows could not be written after their retries.</summary>
    CompletedWithFailures,

    /// <summary>More rows were rejected than <c>Loader:MaxRejects</c> allows; the load stopped.</summary>
    RejectLimitExceeded,

    /// <summary>Stopped on request (SIGTERM, Ctrl-C) before the end of the input.</summary>
    Stopped,

    /// <summary>No checkpoint could be written for long enough that the load stopped rather than run on without one.</summary>
    CheckpointLost,

    /// <summary>The rows were settled, but an output (report, rejects, final checkpoint) could not be stored.</summary>
    OutputFailed,

    /// <summary>A setting, the input or its header cannot be what a load needs; nothing was written.</summary>
    InvalidConfiguration,

    /// <summary>The input, an output or the target could not be reached, or refused the credentials.</summary>
    Unavailable,

    /// <summary>A compressed file of the input is truncated or damaged; reading stopped there.</summary>
    InputDamaged,

    /// <summary>An error nobody expected; the message says what.</summary>
    UnexpectedError,
}

/// <summary>How a load ended and, unless it completed, why: the report's <c>outcome</c> and <c>message</c>.</summary>
internal sealed record LoadOutcome(LoadOutcomeKind Kind, string? Message = null)
{
    /// <summary>The report's <c>outcome</c> of a completed load.</summary>
    public const string CompletedName = nameof(LoadOutcomeKind.Completed);

    /// <summary>The report's <c>outcome</c> of a load that could not start or go on, whatever the cause (its exit code tells them apart).</summary>
    public const string FailedName = "Failed";

    public static readonly LoadOutcome Completed = new(LoadOutcomeKind.Completed);

    /// <summary>The report's <c>outcome</c>: the kind by name, but <c>Failed</c> for each reason a load could not start or go on, as users have always read it.</summary>
    public string Name => Kind switch
    {
        LoadOutcomeKind.InvalidConfiguration or LoadOutcomeKind.Unavailable or LoadOutcomeKind.InputDamaged or LoadOutcomeKind.UnexpectedError => FailedName,
        _ => Kind.ToString(),
    };
}

/// <summary>
/// The process exit code an outcome stands for. The host decides them (<c>Hosting/ExitCodes</c>) and hands this to what
/// records them in a report or a shard's state, so no stage needs to know the numbers.
/// </summary>
internal delegate int ExitCodeOf(LoadOutcomeKind outcome);
