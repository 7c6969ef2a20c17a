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
            return Throttled(outcome, SubStatus(response.Headers)) with { Error = message };
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
                // The operation's own sub-status is internal to the SDK; the response carries the failing operation's.
                return Throttled(outcome, SubStatus(response.Headers)) with { RetryAfter = operation.RetryAfter, Error = message };
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

    /// <summary>
    /// The answers to a bulk write's point operations, in the batch's order: written when all applied, else which
    /// applied, how many were throttled (with the longest retry-after) or are worth retrying, and which were refused.
    /// </summary>
    /// <param name="responses">One answer per operation.</param>
    /// <param name="latency">The attempt's latency.</param>
    /// <param name="readCharge">The request units spent reading before the write.</param>
    /// <param name="merging">The operations were built from items read just before (see <see cref="CosmosWrite.FromStoredItems"/>).</param>
    public static BatchOutcome FromItems(IReadOnlyList<ResponseMessage> responses, TimeSpan latency, double readCharge, bool merging)
    {
        var charge = readCharge;
        int throttled = 0, transient = 0, budget = 0, bucket = 0;
        TimeSpan? retryAfter = null;
        var applied = new List<int>();
        var failures = new List<OperationFailure>();
        for (var i = 0; i < responses.Count; i++)
        {
            var response = responses[i];
            charge += response.Headers.RequestCharge;
            var (wasApplied, wasThrottled, wasTransient, failure) = FromItem(i, response, merging);
            if (wasApplied)
            {
                applied.Add(i);
            }
            else if (wasThrottled)
            {
                throttled++;
                retryAfter = Max(retryAfter, RetryAfter(response.Headers));
                var subStatus = SubStatus(response.Headers);
                budget += subStatus == BudgetSubStatus ? 1 : 0;
                bucket += subStatus == BucketSubStatus ? 1 : 0;
            }
            else if (wasTransient)
            {
                transient++;
            }
            else if (failure is not null)
            {
                failures.Add(failure);
            }
        }

        if (applied.Count == responses.Count)
        {
            return BatchOutcome.Written(200, latency, charge) with { Answers = responses.Count };
        }

        return new BatchOutcome
        {
            Status = throttled > 0 ? BatchStatus.Throttled : transient > 0 ? BatchStatus.Transient : BatchStatus.OperationsRejected,
            StatusCode = throttled > 0 ? 429 : 207,
            Latency = latency,
            RequestCharge = charge,
            RetryAfter = retryAfter,
            ThrottledResponses = throttled,
            BudgetThrottledResponses = budget,
            BucketThrottledResponses = bucket,
            Answers = responses.Count,
            AppliedOperations = applied,
            OperationFailures = failures,
            Error = $"{applied.Count} of {responses.Count} items written, {throttled} throttled, {transient} to retry, {failures.Count} refused",
        };
    }

    /// <summary>A failed read of the batch's stored items (ReadMany); its latency is the caller's to add.</summary>
    /// <param name="response">The service's answer.</param>
    /// <param name="what">What was being read, for the error: the batch's stored items, or a partition's.</param>
    public static BatchOutcome FromStoredRead(ResponseMessage response, string what = "the batch's stored items")
    {
        var status = (int)response.StatusCode;
        var outcome = new BatchOutcome
        {
            Status = IsTransient(status) ? BatchStatus.Transient : BatchStatus.Failed,
            StatusCode = status,
            RequestCharge = response.Headers.RequestCharge,
            RetryAfter = RetryAfter(response.Headers),
            Error = $"reading {what} failed: " + Describe(status, response.ErrorMessage),
        };
        return status == 429 ? Throttled(outcome, SubStatus(response.Headers)) : outcome;
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
            429 => Throttled(outcome, exception.SubStatusCode),
            _ when IsTransient(status) => outcome with { Status = BatchStatus.Transient },
            _ => outcome,
        };
    }

    /// <summary>The 429 sub-status of the request-unit budget (the account's, or a partition's).</summary>
    public const int BudgetSubStatus = 3200;

    /// <summary>The 429 sub-status of the request's throughput bucket.</summary>
    public const int BucketSubStatus = 3212;

    /// <summary>One throttled answer, counted by the limit its sub-status names.</summary>
    private static BatchOutcome Throttled(BatchOutcome outcome, int? subStatus) => outcome with
    {
        Status = BatchStatus.Throttled,
        ThrottledResponses = 1,
        BudgetThrottledResponses = subStatus == BudgetSubStatus ? 1 : 0,
        BucketThrottledResponses = subStatus == BucketSubStatus ? 1 : 0,
    };

    /// <summary>
    /// The service's <c>x-ms-substatus</c>, which says which limit a 429 met; read from the headers, as the SDK keeps
    /// <c>Headers.SubStatusCode</c> internal.
    /// </summary>
    public static int? SubStatus(Headers? headers) =>
        int.TryParse(headers?["x-ms-substatus"], System.Globalization.NumberStyles.Integer, System.Globalization.CultureInfo.InvariantCulture, out var subStatus) ? subStatus : null;

    private static TimeSpan? Max(TimeSpan? a, TimeSpan? b) => a is null ? b : b is null ? a : a > b ? a : b;

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
        404 => "no item with this id is stored in the partition",
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
