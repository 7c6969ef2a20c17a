using System.Globalization;
using System.Text.Json;
using Azure;
using Azure.Data.Tables;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Tables;

/// <summary>Classifies the Table service's answer to a transaction, as the SDK reports it, into a <see cref="BatchOutcome"/>.</summary>
internal static class TableOutcomes
{
    public static BatchOutcome Written(Response response, TableResponseHeaders? headers, TimeSpan latency) =>
        BatchOutcome.Written(response.Status, latency, (headers ?? TableResponseHeaders.Read(response.Headers)).RequestCharge);

    /// <summary>
    /// The service answered, and not with success: the whole request was refused (429, 503, 403, 404 ...), or one
    /// operation of the change set was (<see cref="TableTransactionFailedException"/>, which names its index).
    /// </summary>
    public static BatchOutcome Refused(RequestFailedException exception, TableResponseHeaders? whole, EntityBatch batch, TimeSpan latency)
    {
        var answer = exception.GetRawResponse();
        var own = answer is null ? default : TableResponseHeaders.Read(answer.Headers);
        var (code, message) = ServiceError(answer, exception.ErrorCode, exception.Message);
        var status = exception.Status;
        var outcome = new BatchOutcome
        {
            Status = BatchStatus.Failed,
            StatusCode = status,
            Latency = latency,
            RequestCharge = whole?.RequestCharge ?? own.RequestCharge,
            RetryAfter = own.RetryAfter ?? whole?.RetryAfter,
            Error = Describe(status, code, message.Text),
        };

        if (IsThrottling(status, code))
        {
            return outcome with { Status = BatchStatus.Throttled, ThrottledResponses = 1 };
        }

        if (status is 408 or >= 500)
        {
            return outcome with { Status = BatchStatus.Transient };
        }

        // The index names the row to blame, except when the request as a whole is wrong (a missing table, say).
        var index = (exception as TableTransactionFailedException)?.FailedTransactionActionIndex ?? message.Index;
        var rowSpecific = exception is TableTransactionFailedException
            && index is { } i && i >= 0 && i < batch.Entities.Count
            && code is not ("TableNotFound" or "AuthorizationFailure" or "AuthenticationFailed");
        return rowSpecific
            ? outcome with
            {
                Status = BatchStatus.OperationsRejected,
                OperationFailures = [new OperationFailure(index!.Value, status, code, message.Text)],
            }
            : outcome;
    }

    /// <summary>429 (Cosmos DB for Table), 503 Server Busy and 500 Operation Timeout (Azure Storage).</summary>
    private static bool IsThrottling(int status, string code) =>
        status is 429 or 503 || (status == 500 && code == "OperationTimedOut");

    private static string Describe(int status, string code, string message)
    {
        var what = string.IsNullOrEmpty(code) ? status.ToString(CultureInfo.InvariantCulture) : $"{status} {code}";
        return string.IsNullOrEmpty(message) ? what : $"{what}: {message}";
    }

    /// <summary>
    /// The service's code and the first line of its message from the OData error body (the SDK's exception message
    /// adds the whole body and every header, too much for a reject reason). A failed operation's message starts with
    /// its index, <c>"3:The specified entity already exists."</c>; it is split off.
    /// </summary>
    private static (string Code, (int? Index, string Text) Message) ServiceError(Response? answer, string? sdkCode, string sdkMessage)
    {
        string code = sdkCode ?? "", text = "";
        try
        {
            if (answer?.Content is { } content && content.ToMemory().Length > 0)
            {
                using var document = JsonDocument.Parse(content.ToMemory());
                if (document.RootElement.TryGetProperty("odata.error", out var error))
                {
                    code = error.TryGetProperty("code", out var codeElement) ? codeElement.GetString() ?? code : code;
                    text = error.TryGetProperty("message", out var messageElement) && messageElement.ValueKind == JsonValueKind.Object
                        && messageElement.TryGetProperty("value", out var value)
                        ? value.GetString() ?? ""
                        : "";
                }
            }
        }
        catch (JsonException)
        {
            // Not JSON (an XML error or a proxy's page): the status and code are what there is.
        }

        if (text.Length == 0)
        {
            // A refused operation's exception carries no response of its own; its message starts with the service's.
            text = answer is null ? sdkMessage : answer.ReasonPhrase;
        }

        var newline = text.IndexOf('\n', StringComparison.Ordinal);
        text = (newline < 0 ? text : text[..newline]).Trim();
        var colon = text.IndexOf(':', StringComparison.Ordinal);
        return colon > 0 && int.TryParse(text.AsSpan(0, colon), NumberStyles.None, CultureInfo.InvariantCulture, out var index)
            ? (code, (index, text[(colon + 1)..].Trim()))
            : (code, (null, text));
    }
}
