namespace Loader.Benchmarks;

/// <summary>
/// What <c>ingest</c> writes to bench/results/ingest-&lt;time&gt;.json: every run, and per measurement the median
/// over the runs (peak memory: the largest). Not valid when any phase lost rows or failed: then no number means anything.
/// </summary>
internal sealed record IngestResults(
    DateTimeOffset StartedAt,
    MachineFacts Machine,
    BenchSettings Settings,
    string CommandLine,
    string DataCommandLine,
    IReadOnlyList<IngestRun> Runs,
    IReadOnlyList<Measurement> Summary,
    IReadOnlyList<TargetCheck> Ratios,
    bool Valid,
    string LoadAverageAtEnd);
