using System.Net;
using Loader.Abstractions;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>Classifies Cosmos DB answers into <see cref="BatchOutcome"/>s.</summary>
internal static class CosmosOutcomes
{
    /// <summary>The answer to a transactional batch: on failure the failing operation carries its status, the others 424.</summary>
    public static BatchOutcome FromTransaction(TransactionalBatchResponse response, TimeSpan latency, double requestCharge, bool merging)
    {
        var outcome = new BatchOutcome
        {
            Status = BatchStatus.Written,
            StatusCode = (int)response.StatusCode,
            Latency = latency,
            RequestCharge = requestCharge,
            RetryAfter = response.RetryAfter,
        };

        if (response.IsSuccessStatusCode)
        {
            return outcome;
        }

        var status = (int)response.StatusCode;
        var message = Describe(status, response.ErrorMessage);
        if (status == 429)
        {
            return outcome with { Status = BatchStatus.Throttled, ThrottledResponses = 1, Error = message };
        }

        if (IsTransient(status))
        {
            return outcome with { Status = BatchStatus.Transient, Error = message };
        }

        for (var i = 0; i < response.Count; i++)
        {
            var operation = response[i];
            var operationStatus = (int)operation.StatusCode;
            if (operation.IsSuccessStatusCode || operationStatus == (int)HttpStatusCode.FailedDependency)
            {
                continue;
            }

            if (operationStatus == 429)
            {
                return outcome with { Status = BatchStatus.Throttled, ThrottledResponses = 1, RetryAfter = operation.RetryAfter, Error = message };
            }

            if (merging && operationStatus is 404 or 409 or 412)
            {
                // The item changed between reading and writing it: read again and merge again.
                return outcome with { Status = BatchStatus.Transient, Error = $"item '{i}' changed while being merged ({operationStatus})" };
            }

            return outcome with
            {
                Status = BatchStatus.OperationsRejected,
                OperationFailures = [new OperationFailure(i, operationStatus, operation.StatusCode.ToString(), OperationMessage(operationStatus, response.ErrorMessage))],
                Error = message,
            };
        }

        return outcome with { Status = BatchStatus.Failed, Error = message };
    }

    /// <summary>The answer to one point operation of a bulk write.</summary>
    public static (bool Applied, bool Throttled, bool Transient, OperationFailure? Failure) FromItem(int index, ResponseMessage response, bool merging)
    {
        var status = (int)response.StatusCode;
        if (response.IsSuccessStatusCode)
        {
            return (true, false, false, null);
        }

        if (status == 429)
        {
            return (false, true, false, null);
        }

        if (IsTransient(status) || (merging && status is 404 or 409 or 412))
        {
            return (false, false, true, null);
        }

        return (false, false, false, new OperationFailure(index, status, response.StatusCode.ToString(), OperationMessage(status, response.ErrorMessage)));
    }

    public static BatchOutcome FromException(CosmosException exception, TimeSpan latency)
    {
        var status = (int)exception.StatusCode;
        var outcome = new BatchOutcome
        {
            Status = BatchStatus.Failed,
            StatusCode = status,
            Latency = latency,
            RequestCharge = exception.RequestCharge > 0 ? exception.RequestCharge : null,
            RetryAfter = exception.RetryAfter,
            Error = Describe(status, exception.ResponseBody ?? exception.Message),
        };

        return status switch
        {
            429 => outcome with { Status = BatchStatus.Throttled, ThrottledResponses = 1 },
            _ when IsTransient(status) => outcome with { Status = BatchStatus.Transient },
            _ => outcome,
        };
    }

    /// <summary>The service's <c>x-ms-retry-after-ms</c>, when it sent one.</summary>
    public static TimeSpan? RetryAfter(Headers headers) =>
        double.TryParse(headers["x-ms-retry-after-ms"], System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out var milliseconds)
            ? TimeSpan.FromMilliseconds(milliseconds)
            : null;

    /// <summary>
    /// Timeouts, partition moves, server errors: retrying may succeed. The one rule for every Cosmos DB answer (a batch,
    /// an item of a bulk request, the reads before a merge); other 5xx (501, 505, 507) would fail the same way again.
    /// </summary>
    internal static bool IsTransient(int status) => status is 408 or 410 or 449 or 500 or 502 or 503 or 504;

    private static string OperationMessage(int status, string? batchMessage) => status switch
    {
        409 => "an item with this id already exists in the partition",
        413 => "the item is larger than Cosmos DB allows",
        _ => FirstLine(batchMessage) is { Length: > 0 } text ? text : $"status {status}",
    };

    public static string Describe(int status, string? message)
    {
        var text = FirstLine(message);
        return text.Length == 0 ? $"{status}" : $"{status}: {text}";
    }

    /// <summary>Cosmos DB messages carry diagnostics JSON after the first line; a reject reason needs only the first.</summary>
    private static string FirstLine(string? message)
    {
        if (string.IsNullOrWhiteSpace(message))
        {
            return "";
        }

        var text = message.Trim();
        var end = text.IndexOfAny(['\n', '\r']);
        if (end > 0)
        {
            text = text[..end];
        }

        return text.Length > 300 ? text[..300] + "…" : text;
    }
}
