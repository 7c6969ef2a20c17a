namespace Loader.Benchmarks;

/// <summary>One timed phase: what it wrote, how fast, and whether the table held every row afterwards.</summary>
internal sealed record Measurement
{
    public required string Name { get; init; }

    /// <summary>Rows written in the timed part.</summary>
    public required long Rows { get; init; }

    public required double Seconds { get; init; }

    public double RowsPerSecond => Seconds > 0 ? Math.Round(Rows / Seconds, 1) : 0;

    /// <summary>Per-request latency percentiles (a batch or a single entity), in milliseconds.</summary>
    public double? P50Ms { get; init; }

    public double? P99Ms { get; init; }

    /// <summary>Peak resident memory of the loader process; none for phases inside the benchmark process, whose heap holds the whole prepared input.</summary>
    public double? PeakMiB { get; init; }

    /// <summary>Requests sent: batches, or entities for one request per row.</summary>
    public long Requests { get; init; }

    /// <summary>Cores Azurite kept busy during the phase, on average.</summary>
    public double? AzuriteCores { get; init; }

    /// <summary>Cores the writing process kept busy (the loader process, or the benchmark process for the baselines).</summary>
    public double? ClientCores { get; init; }

    /// <summary>Entities the table should hold after the phase, and the count a query found.</summary>
    public long Expected { get; init; }

    public long? Stored { get; init; }

    /// <summary>Rows per second within each tenth of the rows, to show the service slowing as the table fills.</summary>
    public IReadOnlyList<double>? RowsPerSecondByTenth { get; init; }

    /// <summary>Rows per second over the rows the one-request-per-row baseline writes, to compare the two at the same table size.</summary>
    public double? RowsPerSecondOverPerRowPrefix { get; init; }

    /// <summary>Why the measurement cannot be trusted (rows lost, requests failed, the loader failed); null when it can.</summary>
    public string? Problem { get; init; }

    public double RowsPerRequest => Requests > 0 ? Math.Round((double)Rows / Requests, 1) : 0;
}
