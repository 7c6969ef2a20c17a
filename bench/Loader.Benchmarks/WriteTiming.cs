using Loader.Worker.Reporting;

namespace Loader.Benchmarks;

/// <summary>What a timed write of a benchmark's own (not the loader's) produced.</summary>
internal sealed record WriteTiming(
    long Rows,
    long Requests,
    double Seconds,
    LatencyHistogram Latency,
    ProgressTimeline Timeline,
    long FailedRequests,
    string? FirstError,
    double? ClientCores);
