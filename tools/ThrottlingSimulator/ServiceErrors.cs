using System.Globalization;
using System.Text.Json;
using Microsoft.AspNetCore.Http;

namespace Loader.ThrottlingSimulator;

/// <summary>Answers in the Table service's own error shape, so a client reads the simulator's refusals as it reads the service's.</summary>
internal static class ServiceErrors
{
    public const string RequestChargeHeader = "x-ms-request-charge";
    public const string RetryAfterMsHeader = "x-ms-retry-after-ms";
    public const string SubstatusHeader = "x-ms-substatus";

    /// <summary>Cosmos DB's substatus for a request refused because the request-unit budget is spent.</summary>
    public const int RequestRateTooLargeSubstatus = 3200;

    private const string JsonContentType = "application/json;odata=minimalmetadata;streaming=true;charset=utf-8";

    public static Task TooManyRequestsAsync(HttpContext context, int retryAfterMs, TimeProvider timeProvider)
    {
        context.Response.Headers[RetryAfterMsHeader] = retryAfterMs.ToString(CultureInfo.InvariantCulture);
        context.Response.Headers[SubstatusHeader] = RequestRateTooLargeSubstatus.ToString(CultureInfo.InvariantCulture);
        return WriteAsync(context, StatusCodes.Status429TooManyRequests, "TooManyRequests", "Request rate is large.", timeProvider);
    }

    public static Task ServerBusyAsync(HttpContext context, TimeProvider timeProvider) =>
        WriteAsync(context, StatusCodes.Status503ServiceUnavailable, "ServerBusy", "The server is currently unable to receive requests. Please retry your request.", timeProvider);

    public static Task OperationTimedOutAsync(HttpContext context, TimeProvider timeProvider) =>
        WriteAsync(context, StatusCodes.Status500InternalServerError, "OperationTimedOut", "Operation could not be completed within the specified time.", timeProvider);

    public static Task UpstreamFailedAsync(HttpContext context, string reason, TimeProvider timeProvider) =>
        WriteAsync(context, StatusCodes.Status502BadGateway, "UpstreamUnavailable", "The upstream service did not answer: " + reason, timeProvider);

    private static async Task WriteAsync(HttpContext context, int status, string code, string message, TimeProvider timeProvider)
    {
        var requestId = Guid.NewGuid().ToString();
        var response = context.Response;
        response.StatusCode = status;
        response.ContentType = JsonContentType;
        response.Headers["x-ms-request-id"] = requestId;

        // Refused requests cost nothing, and saying so keeps the client's charge accounting complete.
        response.Headers[RequestChargeHeader] = "0";

        // The service appends the request id and time to the message on lines of their own.
        var text = string.Create(CultureInfo.InvariantCulture, $"{message}\nRequestId:{requestId}\nTime:{timeProvider.GetUtcNow().UtcDateTime:o}");
        using var buffer = new MemoryStream();
        using (var json = new Utf8JsonWriter(buffer))
        {
            json.WriteStartObject();
            json.WriteStartObject("odata.error");
            json.WriteString("code", code);
            json.WriteStartObject("message");
            json.WriteString("lang", "en-US");
            json.WriteString("value", text);
            json.WriteEndObject();
            json.WriteEndObject();
            json.WriteEndObject();
        }

        response.ContentLength = buffer.Length;
        await response.Body.WriteAsync(buffer.GetBuffer().AsMemory(0, (int)buffer.Length), context.RequestAborted);
    }
}
