using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;

namespace Loader.Worker.Shards.Work;

/// <summary>How a shard's run ended, as its worker saw it once the run returned or threw.</summary>
/// <param name="Kind">How the pipeline said it ended; <see cref="LoadOutcomeKind.UnexpectedError"/> when the run threw.</param>
/// <param name="Outcome">The report's outcome (<see cref="ReportOutcome.Failed"/> when the run threw).</param>
/// <param name="ExitCode">The exit code that outcome stands for.</param>
/// <param name="Message">Why it failed or stopped, when it did.</param>
/// <param name="Report">The run's report; null when the run threw.</param>
internal sealed record ShardRunEnd(LoadOutcomeKind Kind, ReportOutcome Outcome, int ExitCode, string? Message, LoadReport? Report = null)
{
    /// <summary>Whether a stop (SIGTERM) was requested by the time the run ended.</summary>
    public bool StopRequested { get; init; }

    /// <summary>Whether the lease on the shard was lost by the time the run ended: another worker may hold the shard.</summary>
    public bool LeaseLost { get; init; }

    public static ShardRunEnd Of(LoadResult result) =>
        new(result.Outcome.Kind, result.Report.Outcome, result.Report.ExitCode, result.Report.Message, result.Report);

    /// <summary>A run that threw: <paramref name="why"/> describes the exception.</summary>
    public static ShardRunEnd Crashed(int exitCode, string why) =>
        new(LoadOutcomeKind.UnexpectedError, ReportOutcome.Failed, exitCode, why);
}
