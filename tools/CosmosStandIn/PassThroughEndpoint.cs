using System.Globalization;
using Loader.ThrottlingSimulator;
using Microsoft.AspNetCore.Http;

namespace Loader.CosmosStandIn;

/// <summary>
/// Everything but batches goes to cosmosdb-server untouched: the account, databases, containers, partition key
/// ranges, point operations, queries. The charge cosmosdb-server reports on item requests is counted, so the
/// stats add up to what a client was told it spent.
/// </summary>
internal sealed class PassThroughEndpoint(HttpForwarder forwarder, StandInStats stats)
{
    public async Task HandleAsync(HttpContext context)
    {
        var itemRequest = context.Request.Path.Value?.Contains("/docs", StringComparison.Ordinal) == true;
        try
        {
            await forwarder.ForwardAsync(context, beforeBody: response =>
            {
                var charge = itemRequest && double.TryParse(response.Headers["x-ms-request-charge"], NumberStyles.Float, CultureInfo.InvariantCulture, out var value) ? value : 0;
                stats.Record(s => s with { PassedThrough = s.PassedThrough + 1, RequestChargeTotal = s.RequestChargeTotal + charge });
            });
        }
        catch (HttpRequestException exception)
        {
            context.Response.StatusCode = StatusCodes.Status502BadGateway;
            await context.Response.WriteAsync("cosmosdb-server did not answer: " + exception.Message, context.RequestAborted);
        }
    }
}
