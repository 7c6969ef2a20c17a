using Loader.Abstractions;
using Loader.Worker.Backends;
using Loader.Worker.Checkpoints;
using Loader.Worker.Inputs;
using Loader.Worker.Inputs.Compression;
using Loader.Worker.Outputs;
using Loader.Worker.Records;

namespace Loader.Worker.Outcomes;

/// <summary>
/// The exceptions that stop a load before its rows flow, each raised where it happens and saying what happened, and the
/// outcome each means. The one place that knows which is which; the host turns the outcome into an exit code.
/// </summary>
internal static class LoadFailures
{
    /// <summary>What <paramref name="exception"/> means for the load; null when it is none of the failures a load expects.</summary>
    public static LoadOutcomeKind? KindOf(Exception exception) => exception switch
    {
        InputRefusedException or InputFormatException or InputMismatchException or InputHeaderException or CheckpointRefusedException or TargetMismatchException => LoadOutcomeKind.InvalidConfiguration,
        OutputRefusedException { Failure: PreflightFailure.InvalidSetting } => LoadOutcomeKind.InvalidConfiguration,
        InputNotFoundException or InputUnavailableException or CheckpointUnavailableException or OutputRefusedException or TargetUnavailableException => LoadOutcomeKind.Unavailable,
        DamagedInputException => LoadOutcomeKind.InputDamaged,
        _ => null,
    };

    /// <summary>The outcome of a load <paramref name="exception"/> stopped, its message the exception's; null as for <see cref="KindOf"/>.</summary>
    public static LoadOutcome? OutcomeOf(Exception exception) => KindOf(exception) is { } kind ? new LoadOutcome(kind, exception.Message) : null;
}
