namespace Loader.Worker.Outcomes;

/// <summary>How a load (or a verb: of a sharded load, <c>verify</c>) ended, said as what happened; <see cref="ExitCodes.Of"/> gives its exit code.</summary>
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

    /// <summary><c>verify</c> read the input and the target to the end and found rows missing from the target or different there.</summary>
    TargetDiffers,

    /// <summary>An error nobody expected; the message says what.</summary>
    UnexpectedError,
}
