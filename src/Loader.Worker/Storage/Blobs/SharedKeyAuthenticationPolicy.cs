using System.Globalization;
using System.Text;
using Azure.Core;
using Azure.Core.Pipeline;

namespace Loader.Worker.Storage.Blobs;

/// <summary>
/// Signs Blob service requests with the account key under the full Shared Key scheme, which (unlike the
/// Table service's SharedKeyLite) covers the standard headers, every <c>x-ms-</c> header and every query
/// parameter. Runs per retry so every attempt carries a fresh date and a signature over it.
/// </summary>
internal sealed class SharedKeyAuthenticationPolicy(string accountName, byte[] accountKey, TimeProvider timeProvider)
    : HttpPipelineSynchronousPolicy
{
    // The standard headers in the order the scheme signs them; Date stays empty because x-ms-date is signed.
    private static readonly string[] s_signedHeaders =
    [
        "Content-Encoding", "Content-Language", "Content-Length", "Content-MD5", "Content-Type", "Date",
        "If-Modified-Since", "If-Match", "If-None-Match", "If-Unmodified-Since", "Range",
    ];

    public override void OnSendingRequest(HttpMessage message)
    {
        SharedKeySignature.StampDate(message.Request, timeProvider);
        SharedKeySignature.Authorize(message.Request, "SharedKey", accountName, accountKey, StringToSign(message.Request));
    }

    internal string StringToSign(Request request)
    {
        var text = new StringBuilder(request.Method.Method.ToUpperInvariant()).Append('\n');
        foreach (var header in s_signedHeaders)
        {
            text.Append(header == "Content-Length" ? ContentLength(request) : request.Headers.TryGetValue(header, out var value) ? value : "").Append('\n');
        }

        var canonicalHeaders = request.Headers
            .Where(header => header.Name.StartsWith("x-ms-", StringComparison.OrdinalIgnoreCase))
            .Select(header => (Name: header.Name.ToLowerInvariant(), Value: header.Value.Trim()))
            .OrderBy(header => header.Name, StringComparer.Ordinal);
        foreach (var (name, value) in canonicalHeaders)
        {
            text.Append(name).Append(':').Append(value).Append('\n');
        }

        return text.Append(CanonicalizedResource(request.Uri.ToUri())).ToString();
    }

    /// <summary><c>/account/encoded/path</c>, then each query parameter decoded as <c>\nname:value[,value]</c>, sorted.</summary>
    internal string CanonicalizedResource(Uri uri)
    {
        var text = new StringBuilder("/").Append(accountName).Append(uri.AbsolutePath);
        var parameters = uri.Query.TrimStart('?')
            .Split('&', StringSplitOptions.RemoveEmptyEntries)
            .Select(pair => pair.Split('=', 2))
            .GroupBy(pair => Uri.UnescapeDataString(pair[0]).ToLowerInvariant(), pair => pair.Length > 1 ? Uri.UnescapeDataString(pair[1]) : "")
            .OrderBy(group => group.Key, StringComparer.Ordinal);
        foreach (var parameter in parameters)
        {
            text.Append('\n').Append(parameter.Key).Append(':').AppendJoin(',', parameter.Order(StringComparer.Ordinal));
        }

        return text.ToString();
    }

    /// <summary>The transport sets Content-Length from the content, after this policy runs; zero is signed as empty.</summary>
    private static string ContentLength(Request request) =>
        request.Content is { } content && content.TryComputeLength(out var length) && length > 0
            ? length.ToString(CultureInfo.InvariantCulture)
            : "";
}
