using Azure.Core;
using Azure.Core.Pipeline;
using Loader.Worker.Storage;

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
        var date = SharedKeySignature.StampDate(message.Request, timeProvider);
        var stringToSign = date + "\n" + CanonicalizedResource(message.Request.Uri.ToUri());
        SharedKeySignature.Authorize(message.Request, "SharedKeyLite", accountName, accountKey, stringToSign);
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
