using System.Globalization;
using Loader.CosmosStandIn.Batches;
using Loader.CosmosStandIn.Containers;
using Loader.CosmosStandIn.Partitioning;
using Loader.CosmosStandIn.Upstream;
using Microsoft.AspNetCore.Http;

namespace Loader.CosmosStandIn;

/// <summary>
/// Point reads (<c>GET …/docs/{id}</c>), by the item's whole partition key: cosmosdb-server answers a read of a
/// missing item with a 500 (it reads a property of the item it did not find), where the service answers 404 —
/// which clients rely on to tell "not there" from a failure — and it knows only the first level of a hierarchical
/// key. So reads go by key through the executor (cosmosdb-server's batch API, or nothing in instant mode).
/// Charged a read's price; not throttled, as the budget paces writes.
/// </summary>
internal sealed class PointReadEndpoint(IContainerCatalog catalog, IBatchExecutor executor, StandInStats stats, SessionTokens sessions)
{
    public async Task HandleAsync(HttpContext context, ContainerPath container, string id)
    {
        var response = context.Response;
        var key = PartitionKeyValue.TryParse(context.Request.Headers["x-ms-documentdb-partitionkey"]);
        if (key is null)
        {
            await ServiceErrorAnswer.WriteAsync(context, 400, "BadRequest", "A point read needs the item's partition key (x-ms-documentdb-partitionkey).");
            return;
        }

        var definition = await catalog.DefinitionAsync(container, context.RequestAborted);
        if (definition is null || !key.IsComplete(definition))
        {
            await (definition is null
                ? ServiceErrorAnswer.WriteAsync(context, 404, "NotFound", $"Container {container.Link} does not exist.", ServiceAnswers.OwnerNotFoundSubstatus)
                : ServiceErrorAnswer.WriteAsync(context, 400, "BadRequest", $"The partition key {key.Json} has {key.Components.Count} component(s), but the container's partition key {definition} has {definition.Paths.Count} path(s)."));
            return;
        }

        var result = await executor.ReadAsync(container, key, id, context.RequestAborted);
        var charge = OperationPlanner.ReadRuPerKilobyte;
        stats.Record(s => s with { PassedThrough = s.PassedThrough + 1, RequestChargeTotal = s.RequestChargeTotal + charge });
        response.ContentType = "application/json";
        response.Headers["x-ms-activity-id"] = Guid.NewGuid().ToString();
        response.Headers["x-ms-request-charge"] = charge.ToString(CultureInfo.InvariantCulture);
        sessions.Stamp(response, wrote: false);
        response.StatusCode = result.StatusCode;
        if (result.IsSuccess)
        {
            response.Headers.ETag = result.ETag;
            await response.Body.WriteAsync(result.Body, context.RequestAborted);
        }
        else
        {
            await response.Body.WriteAsync(ServiceAnswers.ErrorJson("NotFound", ServiceAnswers.NotFoundMessage), context.RequestAborted);
        }
    }
}
