namespace Loader.Benchmarks;

/// <summary>What <c>startup</c> writes to bench/results/startup-&lt;time&gt;.json.</summary>
internal sealed record StartupResults(
    DateTimeOffset StartedAt,
    MachineFacts Machine,
    BenchSettings Settings,
    string CommandLine,
    IReadOnlyList<StartupBuild> Builds,
    IReadOnlyList<StartupRun> Runs,
    IReadOnlyList<StartupRow> Summary,
    bool Valid,
    string LoadAverageAtEnd);
