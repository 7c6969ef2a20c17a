using System.Globalization;
using Loader.CosmosStandIn.Batches;
using Loader.CosmosStandIn.Containers;
using Loader.CosmosStandIn.Partitioning;
using Loader.CosmosStandIn.Upstream;
using Loader.CosmosStandIn.Wire;
using Loader.ThrottlingSimulator;
using Microsoft.AspNetCore.Http;

namespace Loader.CosmosStandIn;

/// <summary>
/// Answers the SDK's batch requests (<c>POST …/docs</c> with <c>x-ms-cosmos-is-batch-request: True</c>): decodes
/// the HybridRow operations, checks and prices them, charges them to the budget (and to the request's throughput
/// bucket), runs them — atomically when <c>x-ms-cosmos-batch-atomic</c> is True (a transactional batch), one by
/// one otherwise (bulk) — and encodes the results as the service does.
/// </summary>
internal sealed class BatchEndpoint(
    IContainerCatalog catalog,
    OperationPlanner planner,
    IBatchExecutor executor,
    RequestBudget budget,
    StandInStats stats,
    SessionTokens sessions)
{
    /// <summary>The service takes batch requests of at most 2 MB.</summary>
    public const int MaxRequestBytes = 2 * 1024 * 1024;

    /// <summary>And at most 100 operations.</summary>
    public const int MaxOperations = 100;

    public static bool IsBatch(HttpRequest request) =>
        HttpMethods.IsPost(request.Method) && IsTrue(request.Headers["x-ms-cosmos-is-batch-request"]);

    public static bool IsAtomic(HttpRequest request) => IsTrue(request.Headers["x-ms-cosmos-batch-atomic"]);

    public async Task HandleAsync(HttpContext context, ContainerPath container)
    {
        var request = context.Request;
        var cancellationToken = context.RequestAborted;
        var body = await ReadBodyAsync(request, cancellationToken);
        stats.Record(s => s with { BatchRequests = s.BatchRequests + 1 });
        if (body is null)
        {
            await ServiceErrorAnswer.WriteAsync(context, 413, "RequestEntityTooLarge", ServiceAnswers.TooLargeMessage);
            return;
        }

        IReadOnlyList<BatchOperation> operations;
        try
        {
            operations = await BatchRequestReader.ReadAsync(body);
        }
        catch (FormatException exception)
        {
            await ServiceErrorAnswer.WriteAsync(context, 400, "BadRequest", exception.Message);
            return;
        }

        stats.Record(s => s with { Operations = s.Operations + operations.Count });
        if (operations.Count is 0 or > MaxOperations)
        {
            await ServiceErrorAnswer.WriteAsync(context, 400, "BadRequest", $"A batch holds 1 to {MaxOperations} operations; this one holds {operations.Count}.");
            return;
        }

        if (ThroughputBuckets.Problem(request) is { } bucketProblem)
        {
            await ServiceErrorAnswer.WriteAsync(context, 400, "BadRequest", bucketProblem);
            return;
        }

        var definition = await catalog.DefinitionAsync(container, cancellationToken);
        if (definition is null)
        {
            await ServiceErrorAnswer.WriteAsync(context, 404, "NotFound", $"Container {container.Link} does not exist.", ServiceAnswers.OwnerNotFoundSubstatus);
            return;
        }

        var throughputBucket = ThroughputBuckets.Of(request);
        string? requestPartitionKey = request.Headers["x-ms-documentdb-partitionkey"];
        var planned = operations.Select(operation => planner.Plan(operation, operation.PartitionKeyJson ?? requestPartitionKey, definition)).ToList();
        var answer = IsAtomic(request)
            ? await RunTransactionAsync(container, requestPartitionKey, planned, throughputBucket, cancellationToken)
            : await RunBulkAsync(container, planned, throughputBucket, cancellationToken);
        if (answer.RetryAfterMs is { } retryAfterMs)
        {
            await ThrottledAsync(context, planned.Count, retryAfterMs, answer.ByThroughputBucket);
            return;
        }

        Count(answer);
        var response = context.Response;
        response.StatusCode = answer.StatusCode;
        response.ContentType = "application/octet-stream";
        response.Headers["x-ms-activity-id"] = Guid.NewGuid().ToString();
        response.Headers["x-ms-request-charge"] = answer.RequestCharge.ToString(CultureInfo.InvariantCulture);
        sessions.Stamp(response, wrote: answer.Results.Any(result => result.IsSuccess));
        var encoded = await BatchResponseWriter.WriteAsync(answer.Results);
        response.ContentLength = encoded.Length;
        await response.Body.WriteAsync(encoded, cancellationToken);
    }

    private async Task<BatchAnswer> RunTransactionAsync(ContainerPath container, string? partitionKeyJson, List<PlannedOperation> planned, string? throughputBucket, CancellationToken cancellationToken)
    {
        var key = PartitionKeyValue.TryParse(partitionKeyJson);
        if (key is null)
        {
            return BatchAnswer.Of(planned.Select(_ => ServiceAnswers.BadRequest("A transactional batch must name its partition key (x-ms-documentdb-partitionkey).")).ToList());
        }

        var cost = planned.Sum(operation => operation.Cost);
        var decision = cost > 0 ? budget.TryCharge(cost, key.Canonical, throughputBucket) : BudgetDecision.Admit;
        if (!decision.Admitted)
        {
            return BatchAnswer.Throttled(decision.RetryAfterMs, decision.ByThroughputBucket);
        }

        var answer = await executor.ExecuteTransactionAsync(container, key, planned, cancellationToken);
        if (!answer.Results.All(result => result.IsSuccess))
        {
            stats.Record(s => s with { TransactionsFailed = s.TransactionsFailed + 1 });
        }
        else
        {
            // A patch costs what the item it leaves costs, known only once it ran.
            budget.Spend(answer.RequestCharge - cost, key.Canonical, throughputBucket);
        }

        return answer;
    }

    private async Task<BatchAnswer> RunBulkAsync(ContainerPath container, List<PlannedOperation> planned, string? throughputBucket, CancellationToken cancellationToken)
    {
        var admission = BulkAdmission.Admit(planned, budget, throughputBucket);
        if (admission.WholeRetryAfterMs is { } waitMs)
        {
            return BatchAnswer.Throttled(waitMs, admission.ByThroughputBucket);
        }

        var results = admission.Results;
        var ttls = new string?[planned.Count];
        if (admission.Admitted.Count > 0)
        {
            var ran = await executor.ExecuteBulkAsync(container, admission.Admitted.Select(i => planned[i]).ToList(), cancellationToken);
            for (var k = 0; k < admission.Admitted.Count; k++)
            {
                var i = admission.Admitted[k];
                results[i] = ran.Results[k];
                ttls[i] = ran.Ttls.Count > k ? ran.Ttls[k] : null;
                budget.Spend(ran.Results[k].RequestCharge - planned[i].Cost, planned[i].PartitionKey, throughputBucket);
            }
        }

        return BatchAnswer.Of(results.Select(result => result!).ToList()) with { Ttls = ttls, ByThroughputBucket = admission.ByThroughputBucket };
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

        var byBucket = answer.ByThroughputBucket ? throttled : 0;
        var charge = answer.RequestCharge;
        stats.Record(s => s with
        {
            OperationsApplied = s.OperationsApplied + applied,
            ItemsCreated = s.ItemsCreated + created,
            OperationsRefused = s.OperationsRefused + refused,
            ThrottledOperations = s.ThrottledOperations + throttled,
            BucketThrottledOperations = s.BucketThrottledOperations + byBucket,
            RequestChargeTotal = s.RequestChargeTotal + charge,
        });
        stats.RecordTtls(answer.Ttls);
    }

    /// <summary>The whole request refused for want of budget: 429, sub-status 3200 (3212 for a throughput bucket's cap), the wait, and no charge.</summary>
    private async Task ThrottledAsync(HttpContext context, int operations, int retryAfterMs, bool byThroughputBucket)
    {
        var byBucket = byThroughputBucket ? 1 : 0;
        stats.Record(s => s with
        {
            ThrottledRequests = s.ThrottledRequests + 1,
            ThrottledOperations = s.ThrottledOperations + operations,
            BucketThrottledRequests = s.BucketThrottledRequests + byBucket,
            BucketThrottledOperations = s.BucketThrottledOperations + (byBucket * operations),
        });
        await ServiceErrorAnswer.ThrottledAsync(context, retryAfterMs, byThroughputBucket);
    }

    /// <summary>The body, or null when it is over the request size limit.</summary>
    private static async Task<MemoryStream?> ReadBodyAsync(HttpRequest request, CancellationToken cancellationToken)
    {
        var buffer = new MemoryStream(request.ContentLength is { } length and > 0 and <= MaxRequestBytes ? (int)length : 0);
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
