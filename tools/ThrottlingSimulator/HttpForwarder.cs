using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace Loader.ThrottlingSimulator;

/// <summary>
/// Sends a request on to an upstream service as the client sent it (method, raw path and query, headers, body)
/// and copies the answer back (status, headers, body). Shared by the proxies in front of Azurite and cosmosdb-server.
/// </summary>
public sealed class HttpForwarder(Uri upstream, HttpClient client)
{
    // Connection-level headers belong to each hop, and Host must name the upstream, not the proxy.
    private static readonly HashSet<string> s_notForwarded = new(StringComparer.OrdinalIgnoreCase)
    {
        "Host", "Connection", "Keep-Alive", "Transfer-Encoding", "TE", "Trailer", "Upgrade",
        "Proxy-Connection", "Proxy-Authenticate", "Proxy-Authorization", "Expect",
    };

    private readonly string _upstreamBase = upstream.GetLeftPart(UriPartial.Authority);

    /// <summary>
    /// Forwards the request with <paramref name="content"/> as its body (null streams the client's body through);
    /// <paramref name="beforeBody"/> may add to the answer's headers before its body is written, and
    /// <paramref name="rewriteBody"/>, when given, gets the whole answer's body and returns the one to send instead
    /// (it may change the answer's headers too). Throws <see cref="HttpRequestException"/> when the upstream does not
    /// answer, before anything was written.
    /// </summary>
    public async Task ForwardAsync(
        HttpContext context, HttpContent? content = null, Action<HttpResponse>? beforeBody = null, Func<HttpResponse, ReadOnlyMemory<byte>, ReadOnlyMemory<byte>>? rewriteBody = null)
    {
        ArgumentNullException.ThrowIfNull(context);
        var request = context.Request;

        // The raw target keeps the path exactly as the client sent and signed it; decoding and re-encoding might not.
        var target = context.Features.Get<IHttpRequestFeature>()?.RawTarget is { Length: > 0 } raw && raw[0] == '/'
            ? raw
            : request.Path.ToUriComponent() + request.QueryString.ToUriComponent();
        using var message = new HttpRequestMessage(new HttpMethod(request.Method), _upstreamBase + target);
        message.Content = content ?? (HasBody(request) ? new StreamContent(request.Body) : null);
        foreach (var (name, values) in request.Headers)
        {
            // A body given in place of the client's knows its own length.
            if (content is not null && string.Equals(name, "Content-Length", StringComparison.OrdinalIgnoreCase))
            {
                continue;
            }

            if (!s_notForwarded.Contains(name) && !message.Headers.TryAddWithoutValidation(name, (IEnumerable<string?>)values))
            {
                message.Content?.Headers.TryAddWithoutValidation(name, (IEnumerable<string?>)values);
            }
        }

        using var upstreamResponse = await client.SendAsync(message, HttpCompletionOption.ResponseHeadersRead, context.RequestAborted);
        var response = context.Response;
        response.StatusCode = (int)upstreamResponse.StatusCode;
        CopyHeaders(upstreamResponse.Headers, response.Headers);
        CopyHeaders(upstreamResponse.Content.Headers, response.Headers);
        beforeBody?.Invoke(response);
        if (rewriteBody is null)
        {
            await upstreamResponse.Content.CopyToAsync(response.Body, context.RequestAborted);
            return;
        }

        var rewritten = rewriteBody(response, await upstreamResponse.Content.ReadAsByteArrayAsync(context.RequestAborted));
        response.ContentLength = rewritten.Length;
        await response.Body.WriteAsync(rewritten, context.RequestAborted);
    }

    private static bool HasBody(HttpRequest request) =>
        request.ContentLength > 0 || request.Headers.TransferEncoding.Count > 0;

    private static void CopyHeaders(System.Net.Http.Headers.HttpHeaders from, IHeaderDictionary to)
    {
        foreach (var (name, values) in from)
        {
            if (!s_notForwarded.Contains(name))
            {
                to[name] = values.ToArray();
            }
        }
    }
}
