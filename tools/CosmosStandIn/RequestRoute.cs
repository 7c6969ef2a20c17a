using Loader.CosmosStandIn.Upstream;
using Microsoft.AspNetCore.Http;

namespace Loader.CosmosStandIn;

/// <summary>Which of the stand-in's endpoints answers a request.</summary>
internal enum RouteTarget
{
    Batch,
    QueryPlan,
    PointRead,
    PointWrite,
    ItemQuery,
    Containers,
    Other,
}

/// <summary>What a request is, by its method, path and headers: where it goes, how it is counted, and the container and item it names.</summary>
internal sealed record RequestRoute(RouteTarget Target, RequestKind Kind, ContainerPath? Container = null, string? ItemId = null)
{
    public static RequestRoute Of(HttpRequest request)
    {
        ArgumentNullException.ThrowIfNull(request);
        var method = request.Method;
        var parts = (request.Path.Value ?? "").Trim('/').Split('/');
        if (parts is ["dbs", var db, "colls", var coll, "docs", ..] && parts.Length <= 6)
        {
            var container = new ContainerPath(Uri.UnescapeDataString(db), Uri.UnescapeDataString(coll));
            if (parts.Length == 6)
            {
                var id = Uri.UnescapeDataString(parts[5]);
                return HttpMethods.IsGet(method) ? new RequestRoute(RouteTarget.PointRead, RequestKind.PointRead, container, id)
                    : HttpMethods.IsPut(method) || HttpMethods.IsDelete(method) || HttpMethods.IsPatch(method) ? new RequestRoute(RouteTarget.PointWrite, RequestKind.PointWrite, container, id)
                    : new RequestRoute(RouteTarget.Other, RequestKind.Metadata);
            }

            if (BatchEndpoint.IsBatch(request))
            {
                return new RequestRoute(RouteTarget.Batch, BatchEndpoint.IsAtomic(request) ? RequestKind.TransactionalBatch : RequestKind.Bulk, container);
            }

            if (QueryPlanEndpoint.IsQueryPlan(request))
            {
                return new RequestRoute(RouteTarget.QueryPlan, RequestKind.Metadata, container);
            }

            return IsQuery(request) || HttpMethods.IsGet(method) ? new RequestRoute(RouteTarget.ItemQuery, RequestKind.Query, container)
                : HttpMethods.IsPost(method) ? new RequestRoute(RouteTarget.PointWrite, RequestKind.PointWrite, container)
                : new RequestRoute(RouteTarget.Other, RequestKind.Metadata);
        }

        return parts is ["dbs", _, "colls"] or ["dbs", _, "colls", _]
            ? new RequestRoute(RouteTarget.Containers, RequestKind.Metadata)
            : new RequestRoute(RouteTarget.Other, RequestKind.Metadata);
    }

    public static bool IsQuery(HttpRequest request) =>
        HttpMethods.IsPost(request.Method)
        && (string.Equals(request.Headers["x-ms-documentdb-isquery"], "True", StringComparison.OrdinalIgnoreCase)
            || request.ContentType?.StartsWith("application/query+json", StringComparison.OrdinalIgnoreCase) == true);
}
