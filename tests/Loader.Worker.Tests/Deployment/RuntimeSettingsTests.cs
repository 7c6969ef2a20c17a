using System.Text.Json;

namespace Loader.Worker.Tests.Deployment;

/// <summary>
/// The runtime settings the loader's project file puts in its runtimeconfig.json, which every way of running it reads (the
/// image's publish, the benchmarks' publishes, <c>dotnet Loader.Worker.dll</c> from a build): read from the copy next
/// to the loader the process tests run.
/// </summary>
public sealed class RuntimeSettingsTests
{
    [Fact]
    public void The_loader_recompiles_a_method_optimized_after_4096_calls_and_without_profile_guided_tiering()
    {
        using var config = JsonDocument.Parse(File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "Loader.Worker.runtimeconfig.json")));
        var properties = config.RootElement.GetProperty("runtimeOptions").GetProperty("configProperties");

        Assert.Equal(4096, properties.GetProperty("System.Runtime.TieredCompilation.CallCountThreshold").GetInt32());
        Assert.False(properties.GetProperty("System.Runtime.TieredPGO").GetBoolean());
    }
}
