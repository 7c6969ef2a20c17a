using Loader.Worker.Outcomes;
using Loader.Worker.Outputs;

namespace Loader.Worker.Verify;

/// <summary>How a verify ended, and its report.</summary>
internal sealed record VerifyResult(LoadOutcome Outcome, VerifyReport Report) : IRunResult<VerifyResult>
{
    object IRunResult<VerifyResult>.JsonReport => Report;

    public VerifyResult With(LoadOutcome outcome) =>
        outcome == Outcome ? this : new(outcome, Report with { Outcome = outcome.Name, ExitCode = outcome.ExitCode, Message = outcome.Message });

    public Task WriteHtmlAsync(OutputFile file, CancellationToken cancellationToken) => VerifyHtml.WriteAsync(Report, file, cancellationToken);
}
