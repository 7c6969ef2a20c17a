using System.Text.Json.Nodes;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Deployment;

/// <summary>
/// The deployment files checked as far as this machine can: no Docker engine here, so the compose file gets its
/// structural checker; the Bicep templates get the real compiler (restored from NuGet, pinned in tools/BicepCli).
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
    public async Task The_Bicep_templates_build_and_lint_with_the_Bicep_compiler()
    {
        var (exitCode, output) = await ToolRun.RunAsync("bash", ["infra/check-bicep.sh"], _cancellation);

        Assert.True(exitCode == 0, output);
        Assert.Contains("Bicep CLI version 0.49.2", output, StringComparison.Ordinal);
        Assert.Contains("Bicep: 0 warnings, 0 errors", output, StringComparison.Ordinal);
        Assert.Contains("OK: the Bicep templates compile and lint without a warning and keep their security promises", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_security_check_of_the_compiled_template_catches_a_shared_key_left_on_and_a_key_handed_to_the_job()
    {
        using var directory = new TestDirectory();
        var compiled = directory.File("main.json");
        var bicep = await BicepCompiler.LocateAsync(_cancellation);
        var (built, buildOutput) = await ToolRun.RunAsync(bicep, ["build", "infra/bicep/main.bicep", "--outfile", compiled], _cancellation);
        Assert.True(built == 0, buildOutput);
        var (passed, passOutput) = await ToolRun.RunAsync("python3", ["infra/validate_bicep.py", compiled], _cancellation);
        Assert.True(passed == 0, passOutput);

        var template = JsonNode.Parse(await File.ReadAllTextAsync(compiled, _cancellation))!;
        Module(template, "loader-storage")["resources"]![0]!["properties"]!["allowSharedKeyAccess"] = true;
        Module(template, "loader-job")["variables"]!["commonEnv"]!.AsArray().Add(new JsonObject
        {
            ["name"] = "STORAGE_KEY",
            ["value"] = "[listKeys(resourceId('Microsoft.Storage/storageAccounts', 'st'), '2023-05-01').keys[0].value]",
        });
        var broken = directory.File("broken.json");
        await File.WriteAllTextAsync(broken, template.ToJsonString(), _cancellation);
        var (exitCode, output) = await ToolRun.RunAsync("python3", ["infra/validate_bicep.py", broken], _cancellation);

        Assert.Equal(1, exitCode);
        Assert.Contains("Microsoft.Storage/storageAccounts: shared-key access must be off", output, StringComparison.Ordinal);
        Assert.Contains("loader-job: variables: 'listKeys('", output, StringComparison.Ordinal);
    }

    /// <summary>The template a module of main.bicep compiles to (a nested deployment named after the module's deployment name).</summary>
    private static JsonNode Module(JsonNode template, string deploymentName) =>
        template["resources"]!.AsArray().Single(resource => (string?)resource!["name"] == deploymentName)!["properties"]!["template"]!;
}
