using System.Text;
using System.Text.Json;
using Loader.CosmosStandIn.Wire;

namespace Loader.CosmosStandIn.Batches;

/// <summary>The service's answers to operations it refuses, with its status codes, sub-statuses and messages.</summary>
public static class ServiceAnswers
{
    /// <summary>Cosmos DB's sub-status for a request refused because the request-unit budget is spent.</summary>
    public const int RequestRateTooLargeSubstatus = 3200;

    /// <summary>Cosmos DB's sub-status for a request refused because its throughput bucket has spent its cap.</summary>
    public const int ThroughputBucketSubstatus = 3212;

    /// <summary>Sub-status of a 404 for a container (or database) that does not exist, unlike an item that does not.</summary>
    public const int OwnerNotFoundSubstatus = 1003;

    /// <summary>Sub-status of a write whose item carries another partition key than the request names.</summary>
    public const int PartitionKeyMismatchSubstatus = 1001;

    public const string ConflictMessage = "Entity with the specified id already exists in the system.";
    public const string NotFoundMessage = "Entity with the specified id does not exist in the system.";
    public const string PreconditionFailedMessage = "Operation cannot be performed because one of the specified precondition is not met.";
    public const string TooLargeMessage = "Request size is too large.";
    public const string ThrottledMessage = "Request rate is large. More Request Units may be needed, so no changes were made. Please retry this request later.";
    public const string ThroughputBucketMessage = "Request rate is large: the request's throughput bucket has used its share of the container's throughput. Please retry this request later.";
    public const string PartitionKeyMismatchMessage = "PartitionKey extracted from document doesn't match the one specified in the header.";

    public static BatchOperationResult Refused(int status, string code, string message, int subStatus = 0, double charge = 0) =>
        new(status, subStatus, Body: ErrorJson(code, message), RequestCharge: charge);

    public static BatchOperationResult Conflict() => Refused(409, "Conflict", ConflictMessage);

    public static BatchOperationResult NotFound() => Refused(404, "NotFound", NotFoundMessage);

    public static BatchOperationResult PreconditionFailed() => Refused(412, "PreconditionFailed", PreconditionFailedMessage);

    public static BatchOperationResult BadRequest(string message, int subStatus = 0) => Refused(400, "BadRequest", message, subStatus);

    public static BatchOperationResult TooLarge() => Refused(413, "RequestEntityTooLarge", TooLargeMessage);

    /// <summary>Not applied because another operation of the atomic batch failed.</summary>
    public static BatchOperationResult FailedDependency() => new(424);

    public static BatchOperationResult Throttled(int retryAfterMs, bool byThroughputBucket = false) =>
        new(429, byThroughputBucket ? ThroughputBucketSubstatus : RequestRateTooLargeSubstatus, RetryAfterMilliseconds: (uint)retryAfterMs);

    /// <summary>The service's error body: <c>{"code":"…","message":"…"}</c>.</summary>
    public static byte[] ErrorJson(string code, string message)
    {
        using var buffer = new MemoryStream();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            writer.WriteString("code", code);
            writer.WriteString("message", message);
            writer.WriteEndObject();
        }

        return buffer.ToArray();
    }

    public static string Text(ReadOnlyMemory<byte> body) => Encoding.UTF8.GetString(body.Span);
}
