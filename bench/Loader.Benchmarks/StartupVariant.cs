namespace Loader.Benchmarks;

/// <summary>
/// One way of running the loader that <c>startup</c> measures: a published build and runtime settings given through the
/// environment (each has a runtimeconfig.json property of its own, so a choice can move into the project file).
/// <paramref name="Ships"/> marks the one the Dockerfile ships, whose target sets the exit code; <paramref name="Caveat"/>
/// says why a candidate cannot ship as it is.
/// </summary>
internal sealed record StartupVariant(string Name, StartupBuild Build, IReadOnlyDictionary<string, string> Environment, bool Ships = false, string? Caveat = null)
{
    public static IReadOnlyList<StartupVariant> Of(StartupBuild jit, StartupBuild readyToRun)
    {
        var none = new Dictionary<string, string>();
        // The project turns TieredPGO off; the environment turns it back on, to measure what that costs.
        var pgoOn = new Dictionary<string, string> { ["DOTNET_TieredPGO"] = "1" };
        // The project raises the call count threshold to 4096; the environment, read before runtimeconfig.json and in
        // hexadecimal, sets the runtime's default of 30 back.
        var defaultCallCount = new Dictionary<string, string> { ["DOTNET_TC_CallCountThreshold"] = "0x1E" };
        return
        [
            new("JIT (IL only)", jit, none),
            new("JIT, TieredPGO on", jit, pgoOn),
            new("ReadyToRun", readyToRun, none, Ships: true),
            new("ReadyToRun, TieredPGO on", readyToRun, pgoOn),
            new("ReadyToRun, call count threshold 30", readyToRun, defaultCallCount),
            new("ReadyToRun, invariant globalization", readyToRun, new Dictionary<string, string> { ["DOTNET_SYSTEM_GLOBALIZATION_INVARIANT"] = "1" },
                Caveat: "not safe: Loader:Csv:Culture names cultures, which need ICU"),
        ];
    }
}
