namespace Loader.Worker.Outcomes;

/// <summary>The loader's process exit codes; a non-zero code marks a Container Apps job execution failed.</summary>
internal static class ExitCodes
{
    /// <summary>Every row was written, superseded, or rejected within <c>Loader:MaxRejects</c>.</summary>
    public const int Success = 0;

    /// <summary>Some rows could not be written after their retries (see the report's <c>errors</c>).</summary>
    public const int RowsFailed = 1;

    /// <summary>
    /// A setting or the input's header is invalid, or the input is nothing the loader reads as set (a folder, an archive, not
    /// the codec its name says, a pipe with a checkpoint); nothing was written.
    /// </summary>
    public const int InvalidConfiguration = 2;

    /// <summary>The input is not there, may not be read, or could not be reached, or the backend could not be reached or refused the credentials; nothing was written.</summary>
    public const int Unavailable = 3;

    /// <summary>More rows were rejected than <c>Loader:MaxRejects</c> allows; the load stopped.</summary>
    public const int RejectLimitExceeded = 4;

    /// <summary>The load was stopped (SIGTERM, Ctrl-C) before the end of the input.</summary>
    public const int Stopped = 5;

    /// <summary>
    /// An output could not be written: checkpoints kept failing, so the load stopped rather than run on without the crash
    /// safety it was configured with; or the load ended but its report, rejects or final checkpoint could not be stored.
    /// </summary>
    public const int OutputFailed = 6;

    /// <summary>
    /// A compressed file of the input is truncated or damaged: the load stopped there (the message names the file and
    /// the byte). What came before it was written and the checkpoint says so: replace the file and run again to resume.
    /// </summary>
    public const int InputDamaged = 7;

    /// <summary>
    /// <c>verify</c> found the target not as the load leaves it: rows missing or different, a repeated key whose later row
    /// did not win, an entity a Delete left, or (with <c>--extra</c>) entities no row accounts for. The report lists them.
    /// </summary>
    public const int TargetDiffers = 8;

    /// <summary>An unexpected error; the message and the report say what.</summary>
    public const int InternalError = 10;

    /// <summary>The exit code an outcome means: the one place outcomes become exit codes.</summary>
    public static int Of(LoadOutcomeKind outcome) => outcome switch
    {
        LoadOutcomeKind.Completed => Success,
        LoadOutcomeKind.CompletedWithFailures => RowsFailed,
        LoadOutcomeKind.InvalidConfiguration => InvalidConfiguration,
        LoadOutcomeKind.Unavailable => Unavailable,
        LoadOutcomeKind.RejectLimitExceeded => RejectLimitExceeded,
        LoadOutcomeKind.Stopped => Stopped,
        LoadOutcomeKind.CheckpointLost or LoadOutcomeKind.OutputFailed => OutputFailed,
        LoadOutcomeKind.InputDamaged => InputDamaged,
        LoadOutcomeKind.TargetDiffers => TargetDiffers,
        LoadOutcomeKind.UnexpectedError => InternalError,
        _ => throw new ArgumentOutOfRangeException(nameof(outcome), outcome, "an outcome with no exit code"),
    };
}
