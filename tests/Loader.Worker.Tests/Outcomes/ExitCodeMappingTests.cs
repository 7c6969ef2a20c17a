using System.Reflection;
using Loader.Worker.Outcomes;

namespace Loader.Worker.Tests.Outcomes;

/// <summary>The one place outcomes become exit codes: the numbers the README documents and scripts depend on.</summary>
public sealed class ExitCodeMappingTests
{
    [Theory]
    [InlineData(nameof(LoadOutcomeKind.Completed), 0)]
    [InlineData(nameof(LoadOutcomeKind.CompletedWithFailures), 1)]
    [InlineData(nameof(LoadOutcomeKind.InvalidConfiguration), 2)]
    [InlineData(nameof(LoadOutcomeKind.Unavailable), 3)]
    [InlineData(nameof(LoadOutcomeKind.RejectLimitExceeded), 4)]
    [InlineData(nameof(LoadOutcomeKind.Stopped), 5)]
    [InlineData(nameof(LoadOutcomeKind.CheckpointLost), 6)]
    [InlineData(nameof(LoadOutcomeKind.OutputFailed), 6)]
    [InlineData(nameof(LoadOutcomeKind.InputDamaged), 7)]
    [InlineData(nameof(LoadOutcomeKind.TargetDiffers), 8)]
    [InlineData(nameof(LoadOutcomeKind.UnexpectedError), 10)]
    public void Each_outcome_exits_with_its_documented_code(string outcomeName, int exitCode)
    {
        var outcome = Enum.Parse<LoadOutcomeKind>(outcomeName);
        Assert.Equal(exitCode, ExitCodes.Of(outcome));
    }

    [Fact]
    public void Every_exit_code_the_help_lists_is_what_some_outcome_exits_with()
    {
        var listed = typeof(ExitCodes).GetFields(BindingFlags.Public | BindingFlags.Static).Select(field => (int)field.GetValue(null)!).Order();
        var reached = Enum.GetValues<LoadOutcomeKind>().Select(ExitCodes.Of).Distinct().Order();

        Assert.Equal(listed, reached);
    }
}
