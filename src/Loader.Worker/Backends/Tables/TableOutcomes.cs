using System.Globalization;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Tables;

/// <summary>Classifies the Table service's answer to a transaction into a <see cref="BatchOutcome"/>.</summary>
internal static class TableOutcomes
{
    public static BatchOutcome From(TableTransactionResult result, EntityBatch batch, TimeSpan latency)
    {
        var outcome = new BatchOutcome
        {
            Status = BatchStatus.Written,
            StatusCode = result.StatusCode,
            Latency = latency,
            RequestCharge = result.RequestCharge,
            RetryAfter = result.RetryAfter,
        };

        if (result.Operations is { } operations)
        {
            var failed = operations.Operations.FirstOrDefault(operation => operation.StatusCode is < 200 or >= 300);
            return failed is null ? outcome : FromFailedOperation(outcome, failed, batch);
        }

        var error = Describe(result.StatusCode, result.ErrorCode, result.ErrorMessage);
        if (IsThrottling(result.StatusCode, result.ErrorCode))
        {
            return outcome with { Status = BatchStatus.Throttled, ThrottledResponses = 1, Error = error };
        }

        return outcome with
        {
            Status = result.StatusCode is 408 or >= 500 ? BatchStatus.Transient : BatchStatus.Failed,
            Error = error,
        };
    }

    private static BatchOutcome FromFailedOperation(BatchOutcome outcome, TableOperationResponse failed, EntityBatch batch)
    {
        var error = Describe(failed.StatusCode, failed.Code, failed.Message);
        if (IsThrottling(failed.StatusCode, failed.Code))
        {
            return outcome with { Status = BatchStatus.Throttled, StatusCode = failed.StatusCode, ThrottledResponses = 1, Error = error };
        }

        if (failed.StatusCode is 408 or >= 500)
        {
            return outcome with { Status = BatchStatus.Transient, StatusCode = failed.StatusCode, Error = error };
        }

        // The index names the row to blame, except when the request as a whole is wrong (a missing table, say).
        var index = failed.Index ?? (failed.ContentId is { } id ? id - 1 : null);
        var rowSpecific = index is { } i && i >= 0 && i < batch.Entities.Count && failed.Code is not ("TableNotFound" or "AuthorizationFailure" or "AuthenticationFailed");
        if (!rowSpecific)
        {
            return outcome with { Status = BatchStatus.Failed, StatusCode = failed.StatusCode, Error = error };
        }

        return outcome with
        {
            Status = BatchStatus.OperationsRejected,
            StatusCode = failed.StatusCode,
            OperationFailures = [new OperationFailure(index!.Value, failed.StatusCode, failed.Code, failed.Message)],
            Error = error,
        };
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
