using System.Globalization;
using Loader.CosmosStandIn.Batches;
using Loader.CosmosStandIn.Upstream;
using Microsoft.AspNetCore.Http;

namespace Loader.CosmosStandIn;

/// <summary>
/// Point reads (<c>GET …/docs/{id}</c>): cosmosdb-server answers a read of a missing item with a 500 (it reads a
/// property of the item it did not find), where the service answers 404 — which clients rely on to tell "not
/// there" from a failure. So reads go through cosmosdb-server's batch API, which answers them properly.
/// </summary>
internal sealed class PointReadEndpoint(CosmosDbServerClient upstream, StandInStats stats)
{
    /// <summary>The read's container and item id, when the request is a point read.</summary>
    public static (ContainerPath Container, string Id)? Match(HttpRequest request)
    {
        if (!HttpMethods.IsGet(request.Method) || request.Path.Value is not { } path)
        {
            return null;
        }

        var slash = path.TrimEnd('/').LastIndexOf('/');
        return slash > 0 && ContainerPath.FromDocumentsPath(path[..slash]) is { } container
            ? (container, Uri.UnescapeDataString(path[(slash + 1)..]))
            : null;
    }

    public async Task HandleAsync(HttpContext context, ContainerPath container, string id)
    {
        var response = context.Response;
        response.ContentType = "application/json";
        response.Headers["x-ms-activity-id"] = Guid.NewGuid().ToString();
        if (context.Request.Headers["x-ms-documentdb-partitionkey"].ToString() is not { Length: > 0 } partitionKey)
        {
            response.StatusCode = StatusCodes.Status400BadRequest;
            await response.Body.WriteAsync(ServiceAnswers.ErrorJson("BadRequest", "A point read needs the item's partition key (x-ms-documentdb-partitionkey)."), context.RequestAborted);
            return;
        }

        var result = (await upstream.ExecuteAsync(container, [new UpstreamOperation("Read", partitionKey, id)], continueOnError: true, context.RequestAborted))[0];
        var charge = Batches.OperationPlanner.ReadRuPerKilobyte;
        stats.Record(s => s with { PassedThrough = s.PassedThrough + 1, RequestChargeTotal = s.RequestChargeTotal + charge });
        response.Headers["x-ms-request-charge"] = charge.ToString(CultureInfo.InvariantCulture);
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
