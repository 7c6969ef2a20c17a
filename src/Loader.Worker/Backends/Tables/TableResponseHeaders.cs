using System.Globalization;
using Azure.Core;
using Azure.Core.Pipeline;

namespace Loader.Worker.Backends.Tables;

/// <summary>The pacing headers of the HTTP answer to a transaction.</summary>
/// <param name="RequestCharge"><c>x-ms-request-charge</c>: sent by Cosmos DB for Table, not by Azure Storage.</param>
/// <param name="RetryAfter"><c>x-ms-retry-after-ms</c> or <c>Retry-After</c>, when the service gave one.</param>
internal readonly record struct TableResponseHeaders(double? RequestCharge, TimeSpan? RetryAfter)
{
    public static TableResponseHeaders Read(ResponseHeaders headers)
    {
        var charge = ReadDouble(headers, "x-ms-request-charge");
        var retryAfter = ReadDouble(headers, "x-ms-retry-after-ms") is { } milliseconds
            ? TimeSpan.FromMilliseconds(milliseconds)
            : ReadDouble(headers, "Retry-After") is { } seconds ? TimeSpan.FromSeconds(seconds) : (TimeSpan?)null;
        return new TableResponseHeaders(charge, retryAfter);
    }

    private static double? ReadDouble(ResponseHeaders headers, string name) =>
        headers.TryGetValue(name, out var text) && double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value)
            ? value
            : null;
}

/// <summary>What one call sent and received: the headers of its answer, once one came, and the size of its request body.</summary>
internal sealed class TableExchange
{
    /// <summary>The headers of the answer; null until an answer arrived.</summary>
    public TableResponseHeaders? Headers { get; set; }

    /// <summary>Bytes of the request body as sent, when the SDK knew its length.</summary>
    public long? RequestBytes { get; set; }
}

/// <summary>
/// Hands the caller the headers of the HTTP answer its call received, and the size of the request it sent. The SDK
/// keeps the headers from us where it matters: a refused operation surfaces as a <c>TableTransactionFailedException</c>
/// holding only that operation's part of the multipart answer, while the request charge (Cosmos DB for Table) and any
/// retry-after are headers of the whole answer. The caller opens a <see cref="Capture"/>, which flows down into the
/// pipeline with the call.
/// </summary>
internal sealed class ResponseHeadersPolicy : HttpPipelineSynchronousPolicy
{
    private static readonly AsyncLocal<TableExchange?> s_current = new();

    /// <summary>Starts capturing for the calls made from here on in this asynchronous flow.</summary>
    public static TableExchange Capture()
    {
        var exchange = new TableExchange();
        s_current.Value = exchange;
        return exchange;
    }

    public override void OnSendingRequest(HttpMessage message)
    {
        if (s_current.Value is { } exchange && message.Request.Content is { } content && content.TryComputeLength(out var length))
        {
            exchange.RequestBytes = length;
        }
    }

    public override void OnReceivedResponse(HttpMessage message)
    {
        if (s_current.Value is { } exchange && message.HasResponse)
        {
            exchange.Headers = TableResponseHeaders.Read(message.Response.Headers);
        }
    }
}
