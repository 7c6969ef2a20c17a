using System.Globalization;
using Loader.CosmosStandIn.Batches;
using Microsoft.AspNetCore.Http;

namespace Loader.CosmosStandIn;

/// <summary>A whole request answered with an error in the service's shape: status, sub-status, no charge, <c>{"code":…,"message":…}</c>.</summary>
internal static class ServiceErrorAnswer
{
    public static async Task WriteAsync(HttpContext context, int status, string code, string message, int subStatus = 0)
    {
        var response = context.Response;
        response.StatusCode = status;
        response.ContentType = "application/json";
        response.Headers["x-ms-activity-id"] = Guid.NewGuid().ToString();
        response.Headers["x-ms-request-charge"] = "0";
        response.Headers["x-ms-substatus"] = subStatus.ToString(CultureInfo.InvariantCulture);
        var body = ServiceAnswers.ErrorJson(code, message);
        response.ContentLength = body.Length;
        await response.Body.WriteAsync(body, context.RequestAborted);
    }

    /// <summary>429 with <c>x-ms-retry-after-ms</c>: sub-status 3200 for the budget, 3212 for a throughput bucket's cap.</summary>
    public static Task ThrottledAsync(HttpContext context, int retryAfterMs, bool byThroughputBucket)
    {
        context.Response.Headers["x-ms-retry-after-ms"] = retryAfterMs.ToString(CultureInfo.InvariantCulture);
        return byThroughputBucket
            ? WriteAsync(context, 429, "TooManyRequests", ServiceAnswers.ThroughputBucketMessage, ServiceAnswers.ThroughputBucketSubstatus)
            : WriteAsync(context, 429, "TooManyRequests", ServiceAnswers.ThrottledMessage, ServiceAnswers.RequestRateTooLargeSubstatus);
    }
}
