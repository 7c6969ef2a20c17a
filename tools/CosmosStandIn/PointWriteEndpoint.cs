using System.Globalization;
using Loader.CosmosStandIn.Batches;
using Loader.CosmosStandIn.Containers;
using Loader.CosmosStandIn.Upstream;
using Loader.CosmosStandIn.Wire;
using Loader.ThrottlingSimulator;
using Microsoft.AspNetCore.Http;

namespace Loader.CosmosStandIn;

/// <summary>
/// Writes of one item outside a batch: create (<c>POST …/docs</c>), upsert (the same with
/// <c>x-ms-documentdb-is-upsert</c>), replace (<c>PUT …/docs/{id}</c>), delete (<c>DELETE</c>) and patch
/// (<c>PATCH</c>). Each is checked, priced, charged and run as a transactional batch of one operation, so it keeps
/// the same rules (a hierarchical key in full, the item's key matching, patch's limits) and costs the same; the
/// answer is the service's for the single operation: its status, ETag, charge, and the item unless the client
/// asked for none (<c>Prefer: return=minimal</c>).
/// </summary>
internal sealed class PointWriteEndpoint(
    IContainerCatalog catalog,
    OperationPlanner planner,
    IBatchExecutor executor,
    RequestBudget budget,
    StandInStats stats,
    SessionTokens sessions)
{
    public async Task HandleAsync(HttpContext context, ContainerPath container, string? id)
    {
        var request = context.Request;
        var type = request.Method switch
        {
            _ when HttpMethods.IsPost(request.Method) => string.Equals(request.Headers["x-ms-documentdb-is-upsert"], "True", StringComparison.OrdinalIgnoreCase) ? BatchOperationType.Upsert : BatchOperationType.Create,
            _ when HttpMethods.IsPut(request.Method) => BatchOperationType.Replace,
            _ when HttpMethods.IsDelete(request.Method) => BatchOperationType.Delete,
            _ => BatchOperationType.Patch,
        };
        using var body = new MemoryStream();
        await request.Body.CopyToAsync(body, context.RequestAborted);
        stats.Record(s => s with { PointWrites = s.PointWrites + 1 });
        if (ThroughputBuckets.Problem(request) is { } bucketProblem)
        {
            await ServiceErrorAnswer.WriteAsync(context, 400, "BadRequest", bucketProblem);
            return;
        }

        var definition = await catalog.DefinitionAsync(container, context.RequestAborted);
        if (definition is null)
        {
            await ServiceErrorAnswer.WriteAsync(context, 404, "NotFound", $"Container {container.Link} does not exist.", ServiceAnswers.OwnerNotFoundSubstatus);
            return;
        }

        var minimal = request.Headers["Prefer"].ToString().Contains("return=minimal", StringComparison.OrdinalIgnoreCase);
        var operation = new BatchOperation(0, type, id, null, body.ToArray(), request.Headers.IfMatch.ToString() is { Length: > 0 } ifMatch ? ifMatch : null, null, minimal);
        var planned = planner.Plan(operation, request.Headers["x-ms-documentdb-partitionkey"], definition);
        var throughputBucket = ThroughputBuckets.Of(request);
        if (planned.Key is null || planned.Refusal is not null)
        {
            await AnswerAsync(context, planned.Refusal ?? ServiceAnswers.BadRequest("The partition key of the item is missing (x-ms-documentdb-partitionkey)."), ttl: null);
            return;
        }

        var decision = budget.TryCharge(planned.Cost, planned.PartitionKey, throughputBucket);
        if (!decision.Admitted)
        {
            stats.Record(s => s with { ThrottledPointWrites = s.ThrottledPointWrites + 1 });
            await ServiceErrorAnswer.ThrottledAsync(context, decision.RetryAfterMs, decision.ByThroughputBucket);
            return;
        }

        var answer = await executor.ExecuteTransactionAsync(container, planned.Key, [planned], context.RequestAborted);
        var result = answer.Results[0];
        if (result.IsSuccess)
        {
            budget.Spend(result.RequestCharge - planned.Cost, planned.PartitionKey, throughputBucket);
        }

        await AnswerAsync(context, result, answer.Ttls.Count > 0 ? answer.Ttls[0] : null);
    }

    private async Task AnswerAsync(HttpContext context, BatchOperationResult result, string? ttl)
    {
        stats.Record(s => s with { RequestChargeTotal = s.RequestChargeTotal + result.RequestCharge });
        stats.RecordTtls([ttl]);
        var response = context.Response;
        response.StatusCode = result.StatusCode;
        response.ContentType = "application/json";
        response.Headers["x-ms-activity-id"] = Guid.NewGuid().ToString();
        response.Headers["x-ms-request-charge"] = result.RequestCharge.ToString(CultureInfo.InvariantCulture);
        response.Headers["x-ms-substatus"] = result.SubStatusCode.ToString(CultureInfo.InvariantCulture);
        if (result.ETag is not null)
        {
            response.Headers.ETag = result.ETag;
        }

        sessions.Stamp(response, wrote: result.IsSuccess);
        if (!result.Body.IsEmpty)
        {
            response.ContentLength = result.Body.Length;
            await response.Body.WriteAsync(result.Body, context.RequestAborted);
        }
    }
}
