using Loader.Worker.Checks;
using Loader.Worker.Outcomes;
using Loader.Worker.Outputs;

namespace Loader.Worker.Tests.Checks;

/// <summary><c>--check</c>'s exit code: the worst failure decides, an unexpected one worst of all.</summary>
public sealed class ReadinessTests
{
    private static PreflightCheck Check(PreflightFailure failure) =>
        failure == PreflightFailure.None ? PreflightCheck.Passed("Loader:Input", "in.csv", "readable") : PreflightCheck.Failed("Loader:Input", "in.csv", "no", failure);

    [Theory]
    [InlineData(new[] { nameof(PreflightFailure.None), nameof(PreflightFailure.None) }, ExitCodes.Success)]
    [InlineData(new[] { nameof(PreflightFailure.None), nameof(PreflightFailure.Refused) }, ExitCodes.Unavailable)]
    [InlineData(new[] { nameof(PreflightFailure.Refused), nameof(PreflightFailure.InvalidSetting) }, ExitCodes.InvalidConfiguration)]
    [InlineData(new[] { nameof(PreflightFailure.InvalidSetting), nameof(PreflightFailure.Unexpected), nameof(PreflightFailure.Refused) }, ExitCodes.InternalError)]
    public void The_exit_code_is_that_of_the_worst_failure(string[] failures, int exitCode)
    {
        var readiness = new Readiness([.. failures.Select(failure => Check(Enum.Parse<PreflightFailure>(failure)))], TimeSpan.FromSeconds(1.25));

        Assert.Equal(exitCode, readiness.ExitCode);
    }

    [Fact]
    public void Each_check_has_its_line_and_the_last_line_says_whether_the_load_is_ready()
    {
        Assert.Equal("OK   Loader:Input in.csv: readable\nReady to load: 1 checks passed in 1.2 s.",
            new Readiness([Check(PreflightFailure.None)], TimeSpan.FromSeconds(1.2)).Format().ReplaceLineEndings("\n"));
        Assert.Equal("OK   Loader:Input in.csv: readable\nFAIL Loader:Input in.csv: no\nNot ready: 1 of 2 checks failed.",
            new Readiness([Check(PreflightFailure.None), Check(PreflightFailure.Refused)], TimeSpan.Zero).Format().ReplaceLineEndings("\n"));
    }
}
