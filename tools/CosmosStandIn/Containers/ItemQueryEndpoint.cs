using System.Globalization;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using Loader.CosmosStandIn.Batches;
using Loader.CosmosStandIn.Partitioning;
using Loader.CosmosStandIn.Upstream;
using Loader.ThrottlingSimulator;
using Microsoft.AspNetCore.Http;

namespace Loader.CosmosStandIn.Containers;

/// <summary>
/// Queries and read feeds of a container's items, run on cosmosdb-server, with what it does not do done to the
/// answer: a query the client scoped to a partition key (<c>x-ms-documentdb-partitionkey</c>) keeps only the whole
/// items of that logical partition (cosmosdb-server ignores the header, and refuses such a query unless it runs
/// across the container); items stored by their whole key (<see cref="FullKeyStorage"/>) lose that key; and a page
/// is charged by the items it returns. Projections (anything but whole items) pass as they are. A query by a prefix
/// of a hierarchical key is refused (<see cref="NarrowerThanTheRange"/>).
/// </summary>
internal sealed class ItemQueryEndpoint(CosmosDbServerClient upstream, PassThroughEndpoint passThrough)
{
    public async Task HandleAsync(HttpContext context, ContainerPath container)
    {
        if (NarrowerThanTheRange(context.Request))
        {
            await ServiceErrorAnswer.WriteAsync(context, 400, "BadRequest",
                "The stand-in cannot scope a query to part of a partition key range (the SDK sends a prefix of a hierarchical key so): query by the full key, or filter in the query's text.");
            return;
        }

        var stored = await upstream.ContainerAsync(container, context.RequestAborted);
        var key = PartitionKeyValue.TryParse(context.Request.Headers["x-ms-documentdb-partitionkey"]);
        if (stored is null)
        {
            await passThrough.HandleAsync(context);
            return;
        }

        // cosmosdb-server refuses a query scoped by the header alone unless its text names the key's properties, where
        // the service runs it in the logical partition; it runs here across the container, then is cut to the key.
        context.Request.Headers["x-ms-documentdb-query-enablecrosspartition"] = "True";
        await passThrough.HandleAsync(context, rewriteBody: (response, body) => Rewrite(response, body, stored, key));
    }

    /// <summary>
    /// Whether the query is scoped to an effective partition key range inside the container's one range: what the SDK
    /// sends for a prefix of a hierarchical key, the hashes of its levels. The stand-in does not compute the service's
    /// hashes, so it cannot tell which items fall in it.
    /// </summary>
    private static bool NarrowerThanTheRange(HttpRequest request)
    {
        var start = request.Headers["x-ms-start-epk"].ToString();
        var end = request.Headers["x-ms-end-epk"].ToString();
        return (start.Length > 0 || end.Length > 0) && !(start.Length == 0 && string.Equals(end, "FF", StringComparison.OrdinalIgnoreCase));
    }

    /// <summary>
    /// What a page costs: a read's price for each item it returns (1 RU per started KiB, the cost model's reads), at
    /// least one request unit. cosmosdb-server charges 1 RU whatever a query returns; the service charges by what it
    /// read, so a ReadMany of a hundred items costs about what a hundred point reads do.
    /// </summary>
    private static double Charge(JsonArray items) =>
        Math.Max(OperationPlanner.ReadRuPerKilobyte, items.Sum(item => RequestCostModel.OperationCharge(Encoding.UTF8.GetByteCount(item?.ToJsonString() ?? ""), OperationPlanner.ReadRuPerKilobyte)));

    private static ReadOnlyMemory<byte> Rewrite(HttpResponse response, ReadOnlyMemory<byte> body, UpstreamContainer stored, PartitionKeyValue? key)
    {
        if (response.StatusCode != StatusCodes.Status200OK || JsonNode.Parse(body.Span) is not JsonObject page || page["Documents"] is not JsonArray documents)
        {
            return body;
        }

        var kept = new JsonArray();
        foreach (var document in documents.ToList())
        {
            documents.Remove(document);
            if (document is JsonObject item && item.ContainsKey("id") && item.ContainsKey("_rid"))
            {
                FullKeyStorage.RemoveKey(item);
                if (key is not null && !key.Matches(JsonSerializer.SerializeToElement(item), stored.Definition))
                {
                    continue;
                }
            }

            kept.Add(document);
        }

        page["Documents"] = kept;
        page["_count"] = kept.Count;
        response.Headers["x-ms-item-count"] = kept.Count.ToString(CultureInfo.InvariantCulture);
        response.Headers["x-ms-request-charge"] = Charge(kept).ToString(CultureInfo.InvariantCulture);
        return JsonSerializer.SerializeToUtf8Bytes(page, FullKeyStorage.JsonOptions);
    }
}
