namespace Loader.Abstractions;

/// <summary>The result of one attempt to write a batch, as the service reported it.</summary>
public sealed record BatchOutcome
{
    public required BatchStatus Status { get; init; }

    /// <summary>HTTP status of the response (0 when no response was received).</summary>
    public int StatusCode { get; init; }

    /// <summary>Time from sending the request to reading the response.</summary>
    public TimeSpan Latency { get; init; }

    /// <summary>Request units charged, or null when the service reports none (Azure Storage).</summary>
    public double? RequestCharge { get; init; }

    /// <summary>Bytes of the request body this attempt sent, or null when the adapter does not measure them.</summary>
    public long? RequestBytes { get; init; }

    /// <summary>How long the service asked to wait before retrying, when it said.</summary>
    public TimeSpan? RetryAfter { get; init; }

    /// <summary>Throttling responses received during this attempt, including any the SDK retried internally.</summary>
    public int ThrottledResponses { get; init; }

    /// <summary>Of <see cref="ThrottledResponses"/>, those the service said met the request-unit budget (Cosmos DB 429 sub-status 3200).</summary>
    public int BudgetThrottledResponses { get; init; }

    /// <summary>Of <see cref="ThrottledResponses"/>, those the service said met the request's throughput bucket (Cosmos DB 429 sub-status 3212).</summary>
    public int BucketThrottledResponses { get; init; }

    /// <summary>
    /// Answers the service gave in this attempt: one for the request, or one per operation where operations are
    /// answered one by one (Cosmos DB bulk mode, whose <see cref="ThrottledResponses"/> count throttled operations).
    /// The share of throttled answers is <see cref="ThrottledResponses"/> over these.
    /// </summary>
    public int Answers { get; init; } = 1;

    /// <summary>Operations the service refused, by index. With an atomic transaction nothing else was applied.</summary>
    public IReadOnlyList<OperationFailure> OperationFailures { get; init; } = [];

    /// <summary>
    /// Operations the service applied although the batch as a whole did not succeed: only in non-atomic modes
    /// (Cosmos DB bulk), where some items land while others are throttled or refused. Empty for transactions.
    /// </summary>
    public IReadOnlyList<int> AppliedOperations { get; init; } = [];

    /// <summary>Operations of this attempt sent as partial updates of stored items (Cosmos DB Merge by patch).</summary>
    public int PatchOperations { get; init; }

    /// <summary>Operations of this attempt sent as whole-item replaces of items read just before (Cosmos DB Merge by read-then-replace).</summary>
    public int ReadReplaceOperations { get; init; }

    /// <summary>A one-line description of the failure, free of secrets.</summary>
    public string? Error { get; init; }

    public static BatchOutcome Written(int statusCode, TimeSpan latency, double? requestCharge) =>
        new() { Status = BatchStatus.Written, StatusCode = statusCode, Latency = latency, RequestCharge = requestCharge };
}
