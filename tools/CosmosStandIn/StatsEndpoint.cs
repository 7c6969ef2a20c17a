using System.Text.Json;
using Microsoft.AspNetCore.Http;

namespace Loader.CosmosStandIn;

/// <summary>
/// <c>GET /_standin/stats</c> and <c>POST /_standin/reset</c>, for benchmarks that run the stand-in as its own
/// process. Cosmos DB paths start with <c>/dbs</c> or are the account root, so the prefix cannot clash.
/// </summary>
internal sealed class StatsEndpoint(StandInStats stats, Action reset)
{
    public const string StatsPath = "/_standin/stats";
    public const string ResetPath = "/_standin/reset";

    private static readonly JsonSerializerOptions s_json = new(JsonSerializerDefaults.Web);

    public async Task<bool> TryHandleAsync(HttpContext context)
    {
        var path = context.Request.Path;
        if (path.Equals(StatsPath, StringComparison.Ordinal) && HttpMethods.IsGet(context.Request.Method))
        {
            await context.Response.WriteAsJsonAsync(stats.Snapshot(), s_json, context.RequestAborted);
            return true;
        }

        if (path.Equals(ResetPath, StringComparison.Ordinal) && HttpMethods.IsPost(context.Request.Method))
        {
            reset();
            context.Response.StatusCode = StatusCodes.Status204NoContent;
            return true;
        }

        return false;
    }
}
