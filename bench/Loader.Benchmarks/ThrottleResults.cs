namespace Loader.Benchmarks;

/// <summary>
/// What <c>throttle</c> writes to bench/results/throttle-&lt;time&gt;.json: the load at default settings (checked
/// against the targets) and the Fixed one it is compared with. Not valid when either run measured nothing.
/// </summary>
public sealed record ThrottleResults(
    DateTimeOffset StartedAt,
    MachineFacts Machine,
    BenchSettings Settings,
    string CommandLine,
    string DataCommandLine,
    ThrottleRun Adaptive,
    ThrottleRun Fixed,
    IReadOnlyList<TargetCheck> Targets,
    bool Valid,
    string LoadAverageAtEnd);
