using System.Globalization;
using Microsoft.AspNetCore.Http;

namespace Loader.ThrottlingSimulator;

/// <summary>
/// Forwards every request to the upstream service unchanged and copies its answer back. Entity group
/// transactions (<c>POST …/$batch</c>) first meet the faults and the request-unit budget, and their answers
/// carry the charge; everything else (tables, queries) passes through free, as the loader's pacing concerns writes.
/// In instant mode nothing is forwarded: a batch that passes the faults and the budget is answered with success at
/// once (<see cref="InstantAnswers"/>), and counted as forwarded.
/// </summary>
internal sealed class ProxyEndpoint(
    Uri upstream,
    HttpClient client,
    RequestBudget budget,
    FaultInjector faults,
    SimulatorStats stats,
    double ruPerKilobyte,
    bool instant,
    TimeProvider timeProvider)
{
    private readonly HttpForwarder _forwarder = new(upstream, client);

    public async Task HandleAsync(HttpContext context)
    {
        try
        {
            if (IsBatch(context.Request))
            {
                await HandleBatchAsync(context);
            }
            else if (instant)
            {
                await InstantAnswers.OtherAsync(context);
            }
            else
            {
                await ForwardAsync(context, content: null, charge: null);
            }
        }
        catch (OperationCanceledException) when (context.RequestAborted.IsCancellationRequested)
        {
            // The client went away; there is nobody left to answer.
        }
    }

    private static bool IsBatch(HttpRequest request) =>
        HttpMethods.IsPost(request.Method) && request.Path.Value?.EndsWith("/$batch", StringComparison.Ordinal) == true;

    private async Task HandleBatchAsync(HttpContext context)
    {
        stats.RecordRequest();

        // The body is read whatever happens next, so that a refusal is a clean answer rather than a reset mid-upload.
        var body = await ReadBodyAsync(context.Request, context.RequestAborted);

        var fault = faults.NextFault();
        switch (fault)
        {
            case Fault.Drop:
                stats.RecordFault(fault);
                context.Abort();
                return;
            case Fault.ServerBusy:
                stats.RecordFault(fault);
                await ServiceErrors.ServerBusyAsync(context, timeProvider);
                return;
            case Fault.OperationTimedOut:
                stats.RecordFault(fault);
                await ServiceErrors.OperationTimedOutAsync(context, timeProvider);
                return;
            case Fault.Hold:
                stats.RecordFault(fault);
                if (!await HoldAsync(context))
                {
                    stats.RecordAbandoned();
                    return;
                }

                break;
        }

        var scan = MultipartBatchScanner.Scan(body.Span);
        var charge = RequestCostModel.BatchCharge(scan, ruPerKilobyte);
        var decision = budget.TryCharge(charge, scan.PartitionKey);
        if (!decision.Admitted)
        {
            stats.RecordThrottled();
            await ServiceErrors.TooManyRequestsAsync(context, decision.RetryAfterMs, timeProvider);
            return;
        }

        var latency = faults.NextLatency();
        if (latency > TimeSpan.Zero)
        {
            await Task.Delay(latency, timeProvider, context.RequestAborted);
        }

        stats.RecordForwarded(scan.Operations.Count);
        if (instant)
        {
            stats.RecordCharge(charge);
            await InstantAnswers.BatchAsync(context, scan.Operations.Count, charge);
            return;
        }

        var content = new ReadOnlyMemoryContent(body);
        await ForwardAsync(context, content, charge);
    }

    /// <summary>Holds the batch; false when its client stopped waiting meanwhile (it is then not forwarded).</summary>
    private async Task<bool> HoldAsync(HttpContext context)
    {
        try
        {
            await Task.Delay(faults.HoldFor, timeProvider, context.RequestAborted);
            return true;
        }
        catch (OperationCanceledException) when (context.RequestAborted.IsCancellationRequested)
        {
            return false;
        }
    }

    private static async Task<ReadOnlyMemory<byte>> ReadBodyAsync(HttpRequest request, CancellationToken cancellationToken)
    {
        using var buffer = new MemoryStream(request.ContentLength is { } length and > 0 and <= int.MaxValue ? (int)length : 0);
        await request.Body.CopyToAsync(buffer, cancellationToken);
        return buffer.GetBuffer().AsMemory(0, (int)buffer.Length);
    }

    /// <summary>
    /// Sends the request on with <paramref name="content"/> as its body (null streams the client's body through)
    /// and reports <paramref name="charge"/> on the answer, when the request is one that is charged.
    /// </summary>
    private async Task ForwardAsync(HttpContext context, HttpContent? content, double? charge)
    {
        try
        {
            await _forwarder.ForwardAsync(context, content, response =>
            {
                if (charge is { } spent)
                {
                    // The budget was spent when the batch was let through, so every answer to it reports the charge,
                    // as Cosmos DB charges failed writes too.
                    response.Headers[ServiceErrors.RequestChargeHeader] = spent.ToString(CultureInfo.InvariantCulture);
                    stats.RecordCharge(spent);
                }
            });
        }
        catch (HttpRequestException exception)
        {
            if (charge is not null)
            {
                stats.RecordUpstreamFailure();
            }

            await ServiceErrors.UpstreamFailedAsync(context, exception.Message, timeProvider);
        }
    }
}
