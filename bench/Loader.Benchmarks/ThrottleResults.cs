namespace Loader.Benchmarks;

/// <summary>
/// What <c>throttle</c> writes to bench/results/throttle-&lt;time&gt;.json: the load at default settings (checked
/// against the targets), the Fixed one it is compared with, and the Cosmos DB load at default settings (checked
/// against the same targets). Not valid when any run measured nothing.
/// </summary>
internal sealed record ThrottleResults(
    DateTimeOffset StartedAt,
    MachineFacts Machine,
    BenchSettings Settings,
    string CommandLine,
    string DataCommandLine,
    ThrottleRun Adaptive,
    ThrottleRun Fixed,
    ThrottleRun Cosmos,
    IReadOnlyList<TargetCheck> Targets,
    bool Valid,
    string LoadAverageAtEnd);
