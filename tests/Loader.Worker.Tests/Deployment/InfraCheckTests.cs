namespace Loader.Worker.Tests.Deployment;

/// <summary>
/// The deployment files checked as far as this machine can: no Docker engine and no Bicep compiler here, so the
/// structural checkers under infra/ run, and the compiler check runs when a compiler is found, skipped otherwise.
/// </summary>
public sealed class InfraCheckTests
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;

    [Fact]
    public async Task The_compose_file_passes_its_structural_check()
    {
        var (exitCode, output) = await ToolRun.RunAsync("python3", ["infra/validate_compose.py"], _cancellation);
        Assert.True(exitCode == 0, output);
    }

    [Fact]
    public async Task The_Bicep_templates_pass_their_structural_check()
    {
        var (exitCode, output) = await ToolRun.RunAsync("python3", ["infra/validate_bicep.py"], _cancellation);
        Assert.True(exitCode == 0, output);
    }

    [Fact]
    public async Task The_Bicep_templates_build_and_lint_with_the_Bicep_compiler()
    {
        var (exitCode, output) = await ToolRun.RunAsync("bash", ["infra/check-bicep.sh"], _cancellation);
        Assert.True(exitCode == 0, output);
        var skipped = output.Split('\n').FirstOrDefault(line => line.StartsWith("SKIPPED", StringComparison.Ordinal));
        if (skipped is not null)
        {
            Assert.Skip(skipped);
        }

        Assert.Contains("OK: every Bicep file builds and lints", output, StringComparison.Ordinal);
    }
}
