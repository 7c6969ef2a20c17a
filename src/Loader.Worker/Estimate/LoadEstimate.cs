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

    /// <summary>
    /// The request-size bound: each row's largest share of a batch request as the adapter sizes it to cut batches under
    /// the service's request limit (for Table Storage a fixed allowance for the operation's part headers and URL, keys
    /// counted as if percent-encoded, strings as if every character were escaped), summed. A ceiling, well above the
    /// bytes that travel (<see cref="SentBytes"/>) and above what the service stores.
    /// </summary>
    public required long PayloadBytes { get; init; }

    /// <summary>Request body bytes per row, measured on the sample's written requests; null when the adapter does not measure them (Cosmos DB).</summary>
    public double? SentBytesPerRow { get; init; }

    /// <summary>The request bodies the load would send without retries: <see cref="SentBytesPerRow"/> times the rows to write.</summary>
    public long? SentBytes { get; init; }

    /// <summary>How long reading, mapping and batching the whole input took (the dry run).</summary>
    public required double ReadSeconds { get; init; }

    public required PartitionSummary Partitions { get; init; }

    /// <summary>The sample's first step (the <c>--sample</c> rows), when one was written.</summary>
    public SampleMeasurement? Sample { get; init; }

    /// <summary>The sample's steps and the limit they found, when a sample was written.</summary>
    public RampOutcome? Ramp { get; init; }

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
/// <param name="RowsPerSecond">The pace.</param>
/// <param name="Seconds">The duration at that pace, less what the service lets through as a burst; the least duration when <see cref="LowerBound"/>.</param>
/// <param name="LimitedBy">The limit and what showed it, in words.</param>
internal sealed record Prediction(double? RowsPerSecond, double? Seconds, string LimitedBy)
{
    /// <summary>What sets the pace.</summary>
    public PaceLimit Limit { get; init; }

    /// <summary>The shortest the load may take; <see cref="Seconds"/> when it is a lower bound.</summary>
    public double? LowSeconds { get; init; }

    /// <summary>The longest it may take; null when unknown (a lower bound).</summary>
    public double? HighSeconds { get; init; }

    /// <summary>
    /// When the service let a burst through before it held the sample to its budget: the duration without that burst, as
    /// for a load started before the service's allowance refilled (right after the estimate). <see cref="Seconds"/> counts it.
    /// </summary>
    public double? SecondsWithoutBurst { get; init; }

    /// <summary>Whether <see cref="Seconds"/> is only a lower bound: the sample met no limit, so the load may take longer by any amount.</summary>
    public bool LowerBound { get; init; }
}

/// <summary>The predicted cost, each line with how it was computed.</summary>
internal sealed record CostEstimate(string Currency, string PricesAsOf, IReadOnlyList<CostLine> Lines);

internal sealed record CostLine(string What, double Amount, string Basis);
