using System.Text.Json;
using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Http;

namespace Loader.CosmosStandIn;

/// <summary>
/// Answers the SDK's query-plan requests (<c>x-ms-cosmos-is-query-plan-request: True</c>), which the gateway
/// serves and cosmosdb-server does not: off Windows the SDK has no local query planner and asks the gateway
/// before every query, ReadMany's included. Only plain filtering queries are planned (one range, nothing to
/// aggregate, order or page); they then run on cosmosdb-server as ordinary queries.
/// </summary>
internal static partial class QueryPlanEndpoint
{
    public static bool IsQueryPlan(HttpRequest request) =>
        HttpMethods.IsPost(request.Method) && string.Equals(request.Headers["x-ms-cosmos-is-query-plan-request"], "True", StringComparison.OrdinalIgnoreCase);

    public static async Task HandleAsync(HttpContext context)
    {
        using var query = await JsonDocument.ParseAsync(context.Request.Body, cancellationToken: context.RequestAborted);
        var text = query.RootElement.TryGetProperty("query", out var value) ? value.GetString() ?? "" : "";
        var response = context.Response;
        response.ContentType = "application/json";
        response.Headers["x-ms-request-charge"] = "0";
        if (UnplannedFeature().Match(text) is { Success: true } feature)
        {
            response.StatusCode = StatusCodes.Status400BadRequest;
            await response.WriteAsync($$"""{"code":"BadRequest","message":"The stand-in plans plain filtering queries only; this one uses {{feature.Value.ToUpperInvariant()}}."}""", context.RequestAborted);
            return;
        }

        await response.WriteAsync(
            """
            {"partitionedQueryExecutionInfoVersion":2,
             "queryInfo":{"distinctType":"None","top":null,"offset":null,"limit":null,"orderBy":[],"orderByExpressions":[],
               "groupByExpressions":[],"groupByAliases":[],"aggregates":[],"groupByAliasToAggregateType":{},"rewrittenQuery":"",
               "hasSelectValue":false,"dCountInfo":null,"hasNonStreamingOrderBy":false},
             "queryRanges":[{"min":"","max":"FF","isMinInclusive":true,"isMaxInclusive":false}]}
            """, context.RequestAborted);
    }

    [GeneratedRegex(@"\b(order\s+by|group\s+by|distinct|top|offset|count|sum|avg|min|max)\b", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex UnplannedFeature();
}
