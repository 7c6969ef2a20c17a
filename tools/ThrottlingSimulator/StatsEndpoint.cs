using System.Text.Json;
using Microsoft.AspNetCore.Http;

namespace Loader.ThrottlingSimulator;

/// <summary>
/// <c>GET /_simulator/stats</c> and <c>POST /_simulator/reset</c>, for benchmarks that run the simulator as a
/// separate process. The prefix cannot clash with the Table service, whose paths start with the account name.
/// </summary>
internal sealed class StatsEndpoint(SimulatorStats stats, Action reset)
{
    public const string StatsPath = "/_simulator/stats";
    public const string ResetPath = "/_simulator/reset";

    private static readonly JsonSerializerOptions s_json = new(JsonSerializerDefaults.Web);

    /// <summary>Answers the request when it is one of the simulator's own; false leaves it to the proxy.</summary>
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
