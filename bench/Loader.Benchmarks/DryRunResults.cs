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
    string LoadAverageAtEnd)
{
    /// <summary>CsvHelper with the typed columns parsed and the keys rendered (<see cref="CsvFloor"/>), in turns with the loader.</summary>
    public IReadOnlyList<CsvBaselineSample> Floors { get; init; } = [];

    /// <summary>The loader's CPU seconds for a one-row file: its start-up and exit.</summary>
    public double? OneRowCpuSeconds { get; init; }
}
