using Loader.Worker.Outputs;
using Loader.Worker.Reporting;
using Loader.Worker.Reporting.Html;

namespace Loader.Worker.Outcomes;

/// <summary>How a run of the pipeline ended, as a type to act on, and its report, as users read it.</summary>
internal sealed record LoadResult(LoadOutcome Outcome, LoadReport Report) : IRunResult<LoadResult>
{
    object IRunResult<LoadResult>.JsonReport => Report;

    /// <summary>The run with another outcome, its report saying the same: outcome, exit code and message change together.</summary>
    public LoadResult With(LoadOutcome outcome) =>
        outcome == Outcome ? this : new(outcome, Report with { Outcome = outcome.Name, ExitCode = outcome.ExitCode, Message = outcome.Message });

    public Task WriteHtmlAsync(OutputFile file, CancellationToken cancellationToken) => HtmlReport.WriteAsync(Report, file, cancellationToken);
}
