using Loader.Worker.Reporting;

namespace Loader.Worker.Tests.Reporting;

/// <summary>The report's <c>outcome</c> field, which users parse: the names it has always had.</summary>
public sealed class LoadOutcomeTests
{
    [Theory]
    [InlineData(LoadOutcomeKind.Completed, "Completed")]
    [InlineData(LoadOutcomeKind.CompletedWithFailures, "CompletedWithFailures")]
    [InlineData(LoadOutcomeKind.RejectLimitExceeded, "RejectLimitExceeded")]
    [InlineData(LoadOutcomeKind.Stopped, "Stopped")]
    [InlineData(LoadOutcomeKind.CheckpointLost, "CheckpointLost")]
    [InlineData(LoadOutcomeKind.OutputFailed, "OutputFailed")]
    [InlineData(LoadOutcomeKind.InvalidConfiguration, "Failed")]
    [InlineData(LoadOutcomeKind.Unavailable, "Failed")]
    [InlineData(LoadOutcomeKind.InputDamaged, "Failed")]
    [InlineData(LoadOutcomeKind.UnexpectedError, "Failed")]
    public void Each_outcome_keeps_the_name_the_report_has_always_given_it(LoadOutcomeKind kind, string name)
    {
        Assert.Equal(name, new LoadOutcome(kind).Name);
    }
}
