using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using Azure.Core;
using Azure.Core.Pipeline;

namespace Loader.Worker.Backends.Tables;

/// <summary>
/// Signs Table service requests with the account key (SharedKeyLite: the date and the canonicalized resource).
/// Runs per retry so every attempt carries a fresh date.
/// </summary>
internal sealed class SharedKeyLiteAuthenticationPolicy(string accountName, byte[] accountKey, TimeProvider timeProvider)
    : HttpPipelineSynchronousPolicy
{
    public override void OnSendingRequest(HttpMessage message)
    {
        var date = timeProvider.GetUtcNow().ToString("R", CultureInfo.InvariantCulture);
        message.Request.Headers.SetValue("x-ms-date", date);
        var stringToSign = date + "\n" + CanonicalizedResource(message.Request.Uri.ToUri());
        var signature = Convert.ToBase64String(HMACSHA256.HashData(accountKey, Encoding.UTF8.GetBytes(stringToSign)));
        message.Request.Headers.SetValue(HttpHeader.Names.Authorization, $"SharedKeyLite {accountName}:{signature}");
    }

    internal string CanonicalizedResource(Uri uri)
    {
        var resource = "/" + accountName + uri.AbsolutePath;
        var query = uri.Query.TrimStart('?');
        foreach (var pair in query.Split('&', StringSplitOptions.RemoveEmptyEntries))
        {
            if (pair.StartsWith("comp=", StringComparison.OrdinalIgnoreCase))
            {
                return resource + "?" + pair;
            }
        }

        return resource;
    }
}
