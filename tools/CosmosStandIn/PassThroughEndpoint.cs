using System.Globalization;
using Loader.ThrottlingSimulator;
using Microsoft.AspNetCore.Http;

namespace Loader.CosmosStandIn;

/// <summary>
/// Requests the stand-in does not answer itself go to cosmosdb-server: the account, databases, containers,
/// partition key ranges, queries. The charge cosmosdb-server reports on item requests is counted, so the stats add
/// up to what a client was told it spent. A caller may send another body, or rewrite the answer's.
/// </summary>
internal sealed class PassThroughEndpoint(HttpForwarder forwarder, StandInStats stats)
{
    public async Task HandleAsync(HttpContext context, HttpContent? content = null, Func<HttpResponse, ReadOnlyMemory<byte>, ReadOnlyMemory<byte>>? rewriteBody = null)
    {
        var itemRequest = context.Request.Path.Value?.Contains("/docs", StringComparison.Ordinal) == true;
        try
        {
            await forwarder.ForwardAsync(context, content, rewriteBody: rewriteBody);

            // Counted as answered, after any rewrite of the answer has set its charge.
            var charge = itemRequest && double.TryParse(context.Response.Headers["x-ms-request-charge"], NumberStyles.Float, CultureInfo.InvariantCulture, out var value) ? value : 0;
            stats.Record(s => s with { PassedThrough = s.PassedThrough + 1, RequestChargeTotal = s.RequestChargeTotal + charge });
        }
        catch (HttpRequestException exception)
        {
            context.Response.StatusCode = StatusCodes.Status502BadGateway;
            await context.Response.WriteAsync("cosmosdb-server did not answer: " + exception.Message, context.RequestAborted);
        }
    }
}
