using System.Text.Json;
using System.Text.Json.Nodes;
using Microsoft.AspNetCore.Http;

namespace Loader.CosmosStandIn.Instant;

/// <summary>
/// Everything but items in the instant mode, answered from the <see cref="InstantCatalog"/> with cosmosdb-server's
/// shapes: the account (its one location being the stand-in), databases and containers (created, read, listed,
/// deleted), the one partition key range of every container (with the incremental feed's 304 once read), and
/// queries and feeds of items, which find nothing. Anything else is 400, as cosmosdb-server answers a path it
/// has no route for (a throughput read, for one, which clients then take as "not known").
/// </summary>
internal sealed class InstantMetadataEndpoint(InstantCatalog catalog, StandInStats stats)
{
    public async Task HandleAsync(HttpContext context)
    {
        var request = context.Request;
        var parts = (request.Path.Value ?? "").Trim('/').Split('/', StringSplitOptions.RemoveEmptyEntries).Select(Uri.UnescapeDataString).ToArray();
        var method = request.Method;
        var query = RequestRoute.IsQuery(request);
        var (status, body) = parts switch
        {
            [] when HttpMethods.IsGet(method) => (200, Account(request)),
            ["dbs"] when query || HttpMethods.IsGet(method) => (200, Feed("Databases", catalog.Databases())),
            ["dbs"] when HttpMethods.IsPost(method) => Created(catalog.CreateDatabase(await BodyAsync(context))),
            ["dbs", var db] when HttpMethods.IsGet(method) => Found(catalog.ReadDatabase(db)),
            ["dbs", var db] when HttpMethods.IsDelete(method) => (catalog.DeleteDatabase(db) ? 204 : 404, null),
            ["dbs", var db, "colls"] when query || HttpMethods.IsGet(method) => catalog.Containers(db) is { } containers ? (200, Feed("DocumentCollections", containers)) : (404, null),
            ["dbs", var db, "colls"] when HttpMethods.IsPost(method) => CreatedContainer(catalog.CreateContainer(db, await BodyAsync(context))),
            ["dbs", var db, "colls", var c] when HttpMethods.IsGet(method) => Found(catalog.ReadContainer(db, c)),
            ["dbs", var db, "colls", var c] when HttpMethods.IsDelete(method) => (catalog.DeleteContainer(db, c) ? 204 : 404, null),
            ["dbs", var db, "colls", var c, "pkranges"] when HttpMethods.IsGet(method) => PartitionKeyRanges(context, catalog.ReadContainer(db, c)),
            ["dbs", var db, "colls", var c, "docs"] when query || HttpMethods.IsGet(method) => Items(context, catalog.ReadContainer(db, c)),
            _ => (400, new JsonObject { ["message"] = "no route" }),
        };

        var response = context.Response;
        response.StatusCode = status;
        response.ContentType = "application/json";
        response.Headers["x-ms-activity-id"] = Guid.NewGuid().ToString();
        response.Headers["x-ms-request-charge"] = "1";
        if (body?["_etag"]?.GetValue<string>() is { } etag && !response.Headers.ContainsKey("etag"))
        {
            response.Headers.ETag = etag;
        }

        if (status is 204 or 304)
        {
            return;
        }

        var bytes = JsonSerializer.SerializeToUtf8Bytes(body ?? new JsonObject { ["code"] = status == 404 ? "NotFound" : "Error", ["message"] = "" });
        response.ContentLength = bytes.Length;
        await response.Body.WriteAsync(bytes, context.RequestAborted);
    }

    private (int, JsonObject?) Items(HttpContext context, JsonObject? container)
    {
        if (container is null)
        {
            return (404, null);
        }

        // A query finds nothing here; it is charged as cosmosdb-server charges one.
        stats.Record(s => s with { RequestChargeTotal = s.RequestChargeTotal + 1 });
        context.Response.Headers["x-ms-item-count"] = "0";
        return (200, new JsonObject { ["_rid"] = container["_rid"]?.DeepClone(), ["Documents"] = new JsonArray(), ["_count"] = 0 });
    }

    private static (int, JsonObject?) PartitionKeyRanges(HttpContext context, JsonObject? container)
    {
        if (container is null)
        {
            return (404, null);
        }

        // The SDK follows the ranges as an incremental feed: once it holds them, asking again with the feed's ETag
        // finds nothing new, as the one range never splits.
        var response = context.Response;
        if (context.Request.Headers.ContainsKey("A-IM"))
        {
            response.Headers.ETag = "1";
            if (context.Request.Headers.ContainsKey("If-None-Match"))
            {
                return (304, null);
            }
        }

        var rid = container["_rid"]!.GetValue<string>();
        var rangeRid = Convert.ToBase64String([.. Convert.FromBase64String(rid), 1, 0, 0, 0, 0, 0, 0, 0x50]);
        var range = new JsonObject
        {
            ["id"] = "0",
            ["minInclusive"] = "",
            ["maxExclusive"] = "FF",
            ["ridPrefix"] = 0,
            ["throughputFraction"] = 1,
            ["status"] = "online",
            ["parents"] = new JsonArray(),
            ["_rid"] = rangeRid,
            ["_self"] = $"{container["_self"]}pkranges/{rangeRid}/",
            ["_etag"] = "\"1\"",
            ["_ts"] = container["_ts"]?.DeepClone(),
        };
        response.Headers["x-ms-item-count"] = "1";
        return (200, new JsonObject { ["_rid"] = rid, ["PartitionKeyRanges"] = new JsonArray(range), ["_count"] = 1 });
    }

    private static JsonObject Account(HttpRequest request)
    {
        var endpoint = $"{request.Scheme}://{request.Host}/";
        var location = new JsonObject { ["name"] = "South Central US", ["databaseAccountEndpoint"] = endpoint };
        return new JsonObject
        {
            ["_rid"] = request.Host.Host,
            ["_self"] = "",
            ["_dbs"] = "//dbs/",
            ["id"] = request.Host.Host,
            ["media"] = "//media/",
            ["addresses"] = "//addresses/",
            ["writableLocations"] = new JsonArray(location),
            ["readableLocations"] = new JsonArray(location.DeepClone()),
            ["enableMultipleWriteLocations"] = false,
            ["userReplicationPolicy"] = new JsonObject { ["asyncReplication"] = false, ["minReplicaSetSize"] = 1, ["maxReplicasetSize"] = 4 },
            ["userConsistencyPolicy"] = new JsonObject { ["defaultConsistencyLevel"] = "Session" },
            ["systemReplicationPolicy"] = new JsonObject { ["minReplicaSetSize"] = 1, ["maxReplicasetSize"] = 4 },
            ["readPolicy"] = new JsonObject { ["primaryReadCoefficient"] = 1, ["secondaryReadCoefficient"] = 1 },
            ["queryEngineConfiguration"] = """{"maxSqlQueryInputLength":262144,"maxJoinsPerSqlQuery":5,"maxLogicalAndPerSqlQuery":500,"maxLogicalOrPerSqlQuery":500,"maxUdfRefPerSqlQuery":10,"maxInExpressionItemsCount":16000,"queryMaxInMemorySortDocumentCount":500,"maxQueryRequestTimeoutFraction":0.9,"sqlAllowNonFiniteNumbers":false,"sqlAllowAggregateFunctions":true,"sqlAllowSubQuery":true,"sqlAllowScalarSubQuery":true,"allowNewKeywords":true,"sqlAllowLike":false,"maxSpatialQueryCells":12,"spatialMaxGeometryPointCount":256,"sqlAllowTop":true,"enableSpatialIndexing":true}""",
        };
    }

    private static JsonObject Feed(string name, IReadOnlyList<JsonObject> resources) => new()
    {
        ["_rid"] = "",
        [name] = new JsonArray(resources.Select(resource => (JsonNode)resource.DeepClone()).ToArray()),
        ["_count"] = resources.Count,
    };

    private static (int, JsonObject?) Found(JsonObject? resource) => resource is null ? (404, null) : (200, (JsonObject)resource.DeepClone());

    private static (int, JsonObject?) Created((int Status, JsonObject? Resource) created) =>
        (created.Status, (JsonObject?)created.Resource?.DeepClone());

    private static (int, JsonObject?) CreatedContainer((int Status, JsonObject? Resource, string? Problem) created) =>
        (created.Status, created.Problem is { } problem ? new JsonObject { ["code"] = "BadRequest", ["message"] = problem } : (JsonObject?)created.Resource?.DeepClone());

    private static async Task<JsonObject> BodyAsync(HttpContext context) =>
        await JsonNode.ParseAsync(context.Request.Body, cancellationToken: context.RequestAborted) as JsonObject ?? [];
}
