using System.Globalization;
using Loader.Worker.Checkpoints;
using Loader.Worker.Inputs.Compression;
using Loader.Worker.Reporting;

namespace Loader.Worker.Outcomes;

/// <summary>How a run's stages ended: what stopped reading, if anything did.</summary>
/// <param name="ReachedEnd">Every record of the input was read.</param>
/// <param name="InputFailure">Why reading stopped early when the input itself failed.</param>
/// <param name="RejectLimitExceeded">More rows were rejected than <c>Loader:MaxRejects</c> allows.</param>
/// <param name="StopRequested">A stop was requested (SIGTERM, Ctrl-C).</param>
/// <param name="CheckpointLost">Set when checkpoints kept failing until the load stopped.</param>
/// <param name="Defect">Set when a stage failed on an error nobody expected (a defect of the loader or an adapter).</param>
internal sealed record StagesEnd(bool ReachedEnd, Exception? InputFailure, bool RejectLimitExceeded, bool StopRequested, CheckpointLoss? CheckpointLost = null, Exception? Defect = null);

/// <summary>No checkpoint could be written for <paramref name="After"/>; the last write failed for <paramref name="LastFailure"/>.</summary>
internal sealed record CheckpointLoss(TimeSpan After, string? LastFailure);

/// <summary>
/// The outcome of a load whose stages have ended, from the first of these that holds: a stage failed on a defect, the checkpoint was lost, the input
/// failed (damaged, unparseable, unreadable), too many rows were rejected, a stop was requested, rows failed; otherwise
/// it completed. An output that cannot be stored may still turn a completed load into
/// <see cref="LoadOutcomeKind.OutputFailed"/> (<see cref="OutputLost"/>).
/// </summary>
internal static class LoadConclusion
{
    /// <param name="end">What stopped the stages, if anything did.</param>
    /// <param name="counts">The load's counts when the stages ended.</param>
    /// <param name="maxRejects">The <c>Loader:MaxRejects</c> setting.</param>
    /// <param name="keepsCheckpoint">Whether the load keeps a checkpoint to resume from.</param>
    public static LoadOutcome Of(StagesEnd end, LoadCounts counts, long maxRejects, bool keepsCheckpoint)
    {
        if (end.Defect is { } defect)
        {
            // Whatever else held, the rows after the defect were never read or sent: the load is not complete.
            return Unexpected(defect, counts.RowsRead);
        }

        if (end.CheckpointLost is { } lost && !end.ReachedEnd)
        {
            return new(LoadOutcomeKind.CheckpointLost, string.Create(CultureInfo.InvariantCulture,
                $"no checkpoint could be written for {lost.After.TotalSeconds:0} s ({lost.LastFailure}): the load stopped after {counts.RowsRead:N0} rows rather than run on without the crash safety Loader:CheckpointPath asks for; fix the checkpoint's location and run again to resume"));
        }

        if (end.InputFailure is CheckpointRefusedException changed)
        {
            // The input differs from the one the resumed checkpoint settled records of: nothing after the difference was sent.
            return new(LoadOutcomeKind.InvalidConfiguration, changed.Message);
        }

        if (end.InputFailure is DamagedInputException damaged)
        {
            var resume = keepsCheckpoint
                ? "the checkpoint records them: replace the file and run again with the same checkpoint to resume after them"
                : "set Loader:CheckpointPath to resume after the rows already written next time";
            return new(LoadOutcomeKind.InputDamaged, string.Create(CultureInfo.InvariantCulture,
                $"the input is damaged, reading stopped after {counts.RowsRead:N0} rows, which were loaded: {damaged.Message} {char.ToUpperInvariant(resume[0])}{resume[1..]}."));
        }

        if (end.InputFailure is InputFormatException notReadable)
        {
            // A part first opened while reading (a later part of several) that is not what it is read as.
            return new(LoadOutcomeKind.InvalidConfiguration, string.Create(CultureInfo.InvariantCulture, $"reading stopped after {counts.RowsRead:N0} rows: {notReadable.Message}"));
        }

        if (end.InputFailure is CsvHelper.CsvFormatException unreadable)
        {
            // The input itself, not the storage it sits on: a record the parser cannot read past (the guard against
            // runaway quotes keeps records far below the parser's limit, so this is not expected).
            return new(LoadOutcomeKind.InvalidConfiguration, $"the input cannot be parsed on after {counts.RowsRead:N0} rows: {unreadable.Message}");
        }

        if (end.InputFailure is { } failure)
        {
            return new(LoadOutcomeKind.Unavailable, $"reading the input failed after {counts.RowsRead:N0} rows: {failure.Message}");
        }

        if (end.RejectLimitExceeded)
        {
            return new(LoadOutcomeKind.RejectLimitExceeded,
                string.Create(CultureInfo.InvariantCulture, $"more than {maxRejects:N0} rows rejected (Loader:MaxRejects); the load stopped after {counts.RowsRead:N0} rows"));
        }

        if (!end.ReachedEnd && end.StopRequested)
        {
            return new(LoadOutcomeKind.Stopped, string.Create(CultureInfo.InvariantCulture, $"stopped on request after {counts.RowsRead:N0} rows"));
        }

        return counts.RowsFailed > 0
            ? new(LoadOutcomeKind.CompletedWithFailures, string.Create(CultureInfo.InvariantCulture, $"{counts.RowsFailed:N0} rows could not be written"))
            : LoadOutcome.Completed;
    }

    /// <summary>
    /// An output (the final checkpoint, the rejects, a report) that could not be stored: a load that had otherwise completed
    /// has not succeeded, however well its rows went, and becomes <see cref="LoadOutcomeKind.OutputFailed"/> with
    /// <paramref name="message"/>; a load that failed otherwise keeps its outcome. <paramref name="outranks"/> lets this
    /// loss replace an earlier output failure's message (the JSON report's loss outranks the HTML report's).
    /// </summary>
    public static LoadOutcome OutputLost(LoadOutcome outcome, string message, bool outranks = false) =>
        outcome.Kind == LoadOutcomeKind.Completed || (outranks && outcome.ExitCode == ExitCodes.OutputFailed)
            ? new LoadOutcome(LoadOutcomeKind.OutputFailed, message)
            : outcome;

    /// <summary>A load that an error nobody expected stopped after <paramref name="rowsRead"/> rows.</summary>
    public static LoadOutcome Unexpected(Exception defect, long rowsRead) =>
        new(LoadOutcomeKind.UnexpectedError, string.Create(CultureInfo.InvariantCulture,
            $"the load failed unexpectedly after {rowsRead:N0} rows: {defect.GetType().Name}: {defect.Message}"));
}
