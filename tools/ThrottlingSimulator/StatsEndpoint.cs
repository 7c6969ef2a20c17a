using System.Text.Json;
using Microsoft.AspNetCore.Http;

namespace Loader.ThrottlingSimulator;

/// <summary>
/// <c>GET {prefix}/stats</c> and <c>POST {prefix}/reset</c> of a test proxy, for benchmarks that run it as a separate
/// process: the counters as camelCase JSON, and a fresh start. The prefix (<c>/_simulator</c>, <c>/_standin</c>)
/// cannot clash with the service's own paths.
/// </summary>
public sealed class StatsEndpoint(string prefix, Func<object> snapshot, Action reset)
{
    public const string SimulatorPrefix = "/_simulator";

    private static readonly JsonSerializerOptions s_json = new(JsonSerializerDefaults.Web);

    private readonly string _statsPath = prefix + "/stats";
    private readonly string _resetPath = prefix + "/reset";

    /// <summary>Answers the request when it is one of these two; false leaves it to the proxy.</summary>
    public async Task<bool> TryHandleAsync(HttpContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var path = context.Request.Path;
        if (path.Equals(_statsPath, StringComparison.Ordinal) && HttpMethods.IsGet(context.Request.Method))
        {
            var counters = snapshot();
            await context.Response.WriteAsJsonAsync(counters, counters.GetType(), s_json, context.RequestAborted);
            return true;
        }

        if (path.Equals(_resetPath, StringComparison.Ordinal) && HttpMethods.IsPost(context.Request.Method))
        {
            reset();
            context.Response.StatusCode = StatusCodes.Status204NoContent;
            return true;
        }

        return false;
    }
}
