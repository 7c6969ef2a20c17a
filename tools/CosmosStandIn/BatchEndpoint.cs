using System.Globalization;
using Loader.CosmosStandIn.Batches;
using Loader.CosmosStandIn.Upstream;
using Loader.CosmosStandIn.Wire;
using Loader.ThrottlingSimulator;
using Microsoft.AspNetCore.Http;

namespace Loader.CosmosStandIn;

/// <summary>
/// Answers the SDK's batch requests (<c>POST …/docs</c> with <c>x-ms-cosmos-is-batch-request: True</c>): decodes
/// the HybridRow operations, charges them to the budget, runs them on cosmosdb-server — atomically when
/// <c>x-ms-cosmos-batch-atomic</c> is True (a transactional batch), one by one otherwise (bulk) — and encodes the
/// results as the service does.
/// </summary>
internal sealed class BatchEndpoint(
    CosmosDbServerClient upstream,
    OperationPlanner planner,
    TransactionalBatchExecutor transactions,
    BulkExecutor bulk,
    RequestBudget budget,
    StandInStats stats)
{
    /// <summary>The service takes batch requests of at most 2 MB.</summary>
    public const int MaxRequestBytes = 2 * 1024 * 1024;

    /// <summary>And at most 100 operations.</summary>
    public const int MaxOperations = 100;

    public static bool IsBatch(HttpRequest request) =>
        HttpMethods.IsPost(request.Method) && IsTrue(request.Headers["x-ms-cosmos-is-batch-request"]);

    public async Task HandleAsync(HttpContext context, ContainerPath container)
    {
        var request = context.Request;
        var cancellationToken = context.RequestAborted;
        var body = await ReadBodyAsync(request, cancellationToken);
        stats.Record(s => s with { BatchRequests = s.BatchRequests + 1 });
        if (body is null)
        {
            await WholeRequestAsync(context, 413, "RequestEntityTooLarge", ServiceAnswers.TooLargeMessage);
            return;
        }

        IReadOnlyList<BatchOperation> operations;
        try
        {
            operations = await BatchRequestReader.ReadAsync(body);
        }
        catch (FormatException exception)
        {
            await WholeRequestAsync(context, 400, "BadRequest", exception.Message);
            return;
        }

        stats.Record(s => s with { Operations = s.Operations + operations.Count });
        if (operations.Count is 0 or > MaxOperations)
        {
            await WholeRequestAsync(context, 400, "BadRequest", $"A batch holds 1 to {MaxOperations} operations; this one holds {operations.Count}.");
            return;
        }

        var partitionKeyPath = await upstream.PartitionKeyPathAsync(container, cancellationToken);
        if (partitionKeyPath is null)
        {
            await WholeRequestAsync(context, 404, "NotFound", $"Container {container.Link} does not exist.");
            return;
        }

        var atomic = IsTrue(request.Headers["x-ms-cosmos-batch-atomic"]);
        string? requestPartitionKey = request.Headers["x-ms-documentdb-partitionkey"];
        var planned = operations.Select(operation => planner.Plan(operation, operation.PartitionKeyJson ?? requestPartitionKey, partitionKeyPath)).ToList();
        var answer = atomic
            ? await RunTransactionAsync(context, container, requestPartitionKey, planned)
            : await bulk.ExecuteAsync(container, planned, budget);
        if (answer.RetryAfterMs is { } retryAfterMs)
        {
            await ThrottledAsync(context, planned.Count, retryAfterMs);
            return;
        }

        Count(answer);
        var response = context.Response;
        response.StatusCode = answer.StatusCode;
        response.ContentType = "application/octet-stream";
        response.Headers["x-ms-activity-id"] = Guid.NewGuid().ToString();
        response.Headers["x-ms-request-charge"] = answer.RequestCharge.ToString(CultureInfo.InvariantCulture);
        var encoded = await BatchResponseWriter.WriteAsync(answer.Results);
        response.ContentLength = encoded.Length;
        await response.Body.WriteAsync(encoded, cancellationToken);
    }

    private async Task<BatchAnswer> RunTransactionAsync(HttpContext context, ContainerPath container, string? partitionKeyJson, List<PlannedOperation> planned)
    {
        if (partitionKeyJson is null)
        {
            return BatchAnswer.Of(planned.Select(_ => ServiceAnswers.BadRequest("A transactional batch must name its partition key (x-ms-documentdb-partitionkey).")).ToList());
        }

        var cost = planned.Sum(operation => operation.Cost);
        var decision = cost > 0 ? budget.TryCharge(cost, partitionKeyJson) : BudgetDecision.Admit;
        if (!decision.Admitted)
        {
            return BatchAnswer.Throttled(decision.RetryAfterMs);
        }

        var answer = await transactions.ExecuteAsync(container, partitionKeyJson, planned, context.RequestAborted);
        if (!answer.Results.All(result => result.IsSuccess))
        {
            stats.Record(s => s with { TransactionsFailed = s.TransactionsFailed + 1 });
        }

        return answer;
    }

    private void Count(BatchAnswer answer)
    {
        int applied = 0, created = 0, refused = 0, throttled = 0;
        foreach (var result in answer.Results)
        {
            if (result.IsSuccess)
            {
                applied++;
                created += result.StatusCode == 201 ? 1 : 0;
            }
            else if (result.StatusCode == 429)
            {
                throttled++;
            }
            else if (result.StatusCode != 424)
            {
                refused++;
            }
        }

        var charge = answer.RequestCharge;
        stats.Record(s => s with
        {
            OperationsApplied = s.OperationsApplied + applied,
            ItemsCreated = s.ItemsCreated + created,
            OperationsRefused = s.OperationsRefused + refused,
            ThrottledOperations = s.ThrottledOperations + throttled,
            RequestChargeTotal = s.RequestChargeTotal + charge,
        });
    }

    /// <summary>The whole request refused for want of budget: 429, sub-status 3200, the wait, and no charge.</summary>
    private async Task ThrottledAsync(HttpContext context, int operations, int retryAfterMs)
    {
        stats.Record(s => s with { ThrottledRequests = s.ThrottledRequests + 1, ThrottledOperations = s.ThrottledOperations + operations });
        context.Response.Headers["x-ms-retry-after-ms"] = retryAfterMs.ToString(CultureInfo.InvariantCulture);
        await WholeRequestAsync(context, 429, "TooManyRequests", ServiceAnswers.ThrottledMessage, ServiceAnswers.RequestRateTooLargeSubstatus);
    }

    private static async Task WholeRequestAsync(HttpContext context, int status, string code, string message, int subStatus = 0)
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

    /// <summary>The body, or null when it is over the request size limit.</summary>
    private static async Task<MemoryStream?> ReadBodyAsync(HttpRequest request, CancellationToken cancellationToken)
    {
        var buffer = new MemoryStream();
        var chunk = new byte[81920];
        int read;
        while ((read = await request.Body.ReadAsync(chunk, cancellationToken)) > 0)
        {
            buffer.Write(chunk, 0, read);
            if (buffer.Length > MaxRequestBytes)
            {
                // Read to the end anyway, so the refusal is a clean answer rather than a reset mid-upload.
                await request.Body.CopyToAsync(Stream.Null, cancellationToken);
                return null;
            }
        }

        buffer.Position = 0;
        return buffer;
    }

    private static bool IsTrue(string? value) => string.Equals(value, "True", StringComparison.OrdinalIgnoreCase);
}
