using System.Globalization;
using Azure;
using Azure.Data.Tables;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Tables;

/// <summary>Classifies the Table service's answer to a transaction, as the SDK reports it or as read from the answer itself, into a <see cref="BatchOutcome"/>.</summary>
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
        var (code, text) = answer?.Content is { } content ? TableServiceError.Read(content.ToMemory().Span) : ("", "");
        code = code.Length > 0 ? code : exception.ErrorCode ?? "";
        if (text.Length == 0)
        {
            // A refused operation's exception carries no response of its own; its message starts with the service's.
            text = TableServiceError.FirstLine(answer is null ? exception.Message : answer.ReasonPhrase);
        }

        var (index, message) = TableServiceError.SplitIndex(text);
        var headers = new TableResponseHeaders(whole?.RequestCharge ?? own.RequestCharge, own.RetryAfter ?? whole?.RetryAfter);
        var operation = exception is TableTransactionFailedException failed ? failed.FailedTransactionActionIndex ?? index : (int?)null;
        return Refused(exception.Status, code, message, operation, exception is TableTransactionFailedException, headers, batch, latency);
    }

    /// <summary>
    /// The service refused the request as a whole (<paramref name="operationFailed"/> false), or one operation of its
    /// change set, at <paramref name="index"/> when the service named it.
    /// </summary>
    public static BatchOutcome Refused(
        int status, string code, string message, int? index, bool operationFailed, TableResponseHeaders headers, EntityBatch batch, TimeSpan latency)
    {
        var outcome = new BatchOutcome
        {
            Status = BatchStatus.Failed,
            StatusCode = status,
            Latency = latency,
            RequestCharge = headers.RequestCharge,
            RetryAfter = headers.RetryAfter,
            Error = Describe(status, code, message),
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
        var rowSpecific = operationFailed
            && index is { } i && i >= 0 && i < batch.Entities.Count
            && code is not ("TableNotFound" or "AuthorizationFailure" or "AuthenticationFailed");
        return rowSpecific
            ? outcome with
            {
                Status = BatchStatus.OperationsRejected,
                OperationFailures = [new OperationFailure(index!.Value, status, code, message)],
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
}
