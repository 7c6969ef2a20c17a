using System.Globalization;
using System.Runtime.CompilerServices;
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

/// <summary>
/// Hands the caller the headers of the HTTP answer its call received. The SDK keeps them from us where it matters: a
/// refused operation surfaces as a <c>TableTransactionFailedException</c> holding only that operation's
/// part of the multipart answer, while the request charge (Cosmos DB for Table) and any retry-after are headers of
/// the whole answer. The caller opens a <see cref="Capture"/>, which flows down into the pipeline with the call.
/// </summary>
internal sealed class ResponseHeadersPolicy : HttpPipelineSynchronousPolicy
{
    private static readonly AsyncLocal<StrongBox<TableResponseHeaders?>?> s_current = new();

    /// <summary>Starts capturing for the calls made from here on in this asynchronous flow.</summary>
    public static StrongBox<TableResponseHeaders?> Capture()
    {
        var box = new StrongBox<TableResponseHeaders?>();
        s_current.Value = box;
        return box;
    }

    public override void OnReceivedResponse(HttpMessage message)
    {
        if (s_current.Value is { } box && message.HasResponse)
        {
            box.Value = TableResponseHeaders.Read(message.Response.Headers);
        }
    }
}
