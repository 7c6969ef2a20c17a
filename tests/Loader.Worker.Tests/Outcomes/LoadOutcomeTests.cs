using Loader.Worker.Outcomes;

namespace Loader.Worker.Tests.Outcomes;

/// <summary>The report's <c>outcome</c> field, which users parse: the names it has always had.</summary>
public sealed class LoadOutcomeTests
{
    [Theory]
    [InlineData(nameof(LoadOutcomeKind.Completed), "Completed")]
    [InlineData(nameof(LoadOutcomeKind.CompletedWithFailures), "CompletedWithFailures")]
    [InlineData(nameof(LoadOutcomeKind.RejectLimitExceeded), "RejectLimitExceeded")]
    [InlineData(nameof(LoadOutcomeKind.Stopped), "Stopped")]
    [InlineData(nameof(LoadOutcomeKind.CheckpointLost), "CheckpointLost")]
    [InlineData(nameof(LoadOutcomeKind.OutputFailed), "OutputFailed")]
    [InlineData(nameof(LoadOutcomeKind.InvalidConfiguration), "Failed")]
    [InlineData(nameof(LoadOutcomeKind.Unavailable), "Failed")]
    [InlineData(nameof(LoadOutcomeKind.InputDamaged), "Failed")]
    [InlineData(nameof(LoadOutcomeKind.UnexpectedError), "Failed")]
    [InlineData(nameof(LoadOutcomeKind.TargetDiffers), "TargetDiffers")]
    public void Each_outcome_keeps_the_name_the_report_has_always_given_it(string kindName, string name)
    {
        var kind = Enum.Parse<LoadOutcomeKind>(kindName);
        Assert.Equal(name, new LoadOutcome(kind).Name.ToString());
    }
}
