namespace Loader.CosmosStandIn.Wire;

/// <summary>The answer to one operation of a batch, as the service encodes it.</summary>
/// <param name="StatusCode">The operation's own HTTP status: 201 created, 200 replaced or read, 409, 412, 424 (not applied because another failed), 429...</param>
/// <param name="SubStatusCode">The service's sub-status (3200: the request-unit budget is spent), 0 when none.</param>
/// <param name="ETag">The item's ETag after the operation, when it wrote or read one.</param>
/// <param name="Body">The item (when the client wants it back) or an error's JSON.</param>
/// <param name="RetryAfterMilliseconds">How long to wait before retrying a throttled operation.</param>
/// <param name="RequestCharge">Request units this operation cost.</param>
public sealed record BatchOperationResult(
    int StatusCode,
    int SubStatusCode = 0,
    string? ETag = null,
    ReadOnlyMemory<byte> Body = default,
    uint? RetryAfterMilliseconds = null,
    double RequestCharge = 0)
{
    public bool IsSuccess => StatusCode is >= 200 and <= 299;
}
