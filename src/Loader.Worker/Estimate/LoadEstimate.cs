using Loader.Worker.Configuration;

namespace Loader.Worker.Estimate;

/// <summary>What <c>--estimate</c> found and predicts; printed as text and as this JSON.</summary>
internal sealed record LoadEstimate
{
    public required string Input { get; init; }

    /// <summary>The input's stored size in bytes.</summary>
    public long? InputBytes { get; init; }

    public required string Backend { get; init; }

    public required string Target { get; init; }

    /// <summary>0 when the estimate was made; otherwise the exit code of the pass that failed (bad settings or header, unreachable input or target).</summary>
    public required int ExitCode { get; init; }

    public string? Message { get; init; }

    public required long RowsRead { get; init; }

    /// <summary>Rows the load would write: read, less rejected and superseded.</summary>
    public required long RowsToWrite { get; init; }

    public required long RowsRejected { get; init; }

    public required long RowsSuperseded { get; init; }

    /// <summary>Transactions (batches) the load would send without retries.</summary>
    public required long Batches { get; init; }

    /// <summary>Bytes of the entities as sent (the payload estimate of the adapter): about what the target will store.</summary>
    public required long PayloadBytes { get; init; }

    /// <summary>How long reading, mapping and batching the whole input took (the dry run).</summary>
    public required double ReadSeconds { get; init; }

    public required PartitionSummary Partitions { get; init; }

    /// <summary>The sample load, when one was written.</summary>
    public SampleMeasurement? Sample { get; init; }

    /// <summary>Why no sample was written, when none was.</summary>
    public string? SampleNote { get; init; }

    /// <summary>Request units per row the prediction used: measured by the sample, or assumed; null for Table Storage, which charges none.</summary>
    public double? RequestUnitsPerRow { get; init; }

    /// <summary><c>measured</c> or <c>assumed</c>.</summary>
    public string? RequestUnitsPerRowSource { get; init; }

    /// <summary>The request units per second the load may spend, and where that number comes from; null when none is known.</summary>
    public double? RequestUnitsPerSecondBudget { get; init; }

    public string? BudgetSource { get; init; }

    public required Prediction Prediction { get; init; }

    public required CostEstimate Cost { get; init; }

    public required IReadOnlyList<string> Warnings { get; init; }

    /// <summary>
    /// What one pass of the estimate read, with nothing planned: as it stands, the estimate of a pass that failed;
    /// <see cref="EstimateCalculator"/> starts from the dry run's and fills in the rest.
    /// </summary>
    public static LoadEstimate Unplanned(Reporting.LoadReport pass) => new()
    {
        Input = pass.Input,
        InputBytes = pass.InputBytes,
        Backend = pass.Backend,
        Target = pass.Target,
        ExitCode = pass.ExitCode,
        Message = pass.Message,
        RowsRead = pass.RowsRead,
        RowsToWrite = pass.RowsWritten,
        RowsRejected = pass.RowsRejected,
        RowsSuperseded = pass.RowsSuperseded,
        Batches = pass.Batches,
        PayloadBytes = 0,
        ReadSeconds = pass.ElapsedSeconds,
        Partitions = new PartitionSummary(0, false, 0, 0, 0, 0, 0, []),
        Prediction = new Prediction(null, null, "the estimate failed"),
        Cost = new CostEstimate("", PriceOptions.DefaultsDate, []),
        Warnings = [],
    };
}

/// <summary>How the rows spread over partition keys.</summary>
internal sealed record PartitionSummary(
    long Count,
    bool CountIsLowerBound,
    long MinRows,
    long MedianRows,
    long P90Rows,
    long P99Rows,
    long MaxRows,
    IReadOnlyList<PartitionShare> Largest);

/// <summary>One of the largest partitions: its key, rows, bytes and share of the rows.</summary>
internal sealed record PartitionShare(string Key, long Rows, long Bytes, double Share);

/// <summary>What writing the sample rows measured.</summary>
internal sealed record SampleMeasurement(long Rows, double Seconds, double RowsPerSecond, double? RequestUnitsPerRow, long Throttled, double LatencyP50Ms, int ExitCode);

/// <summary>The predicted pace and duration of the load, and what sets them.</summary>
internal sealed record Prediction(double? RowsPerSecond, double? Seconds, string LimitedBy);

/// <summary>The predicted cost, each line with how it was computed.</summary>
internal sealed record CostEstimate(string Currency, string PricesAsOf, IReadOnlyList<CostLine> Lines);

internal sealed record CostLine(string What, double Amount, string Basis);
