namespace Loader.Benchmarks;

/// <summary>What <c>dryrun</c> writes to bench/results/dryrun-&lt;time&gt;.json.</summary>
internal sealed record DryRunResults(
    DateTimeOffset StartedAt,
    MachineFacts Machine,
    BenchSettings Settings,
    string CommandLine,
    string DataCommandLine,
    IReadOnlyList<DryRunSample> Runs,
    IReadOnlyList<CsvBaselineSample> Baselines,
    IReadOnlyList<TargetCheck> Targets,
    bool Valid,
    string LoadAverageAtEnd);
