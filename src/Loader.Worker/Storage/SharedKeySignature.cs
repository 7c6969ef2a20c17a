using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using Azure.Core;

namespace Loader.Worker.Storage;

/// <summary>What the storage services' Shared Key and SharedKeyLite schemes have in common: the date and the HMAC.</summary>
internal static class SharedKeySignature
{
    /// <summary>Stamps the request with the current time in <c>x-ms-date</c> (so the signed <c>Date</c> can stay empty).</summary>
    public static string StampDate(Request request, TimeProvider timeProvider)
    {
        var date = timeProvider.GetUtcNow().ToString("R", CultureInfo.InvariantCulture);
        request.Headers.SetValue("x-ms-date", date);
        return date;
    }

    /// <summary>Signs <paramref name="stringToSign"/> and sets the Authorization header of the given scheme.</summary>
    public static void Authorize(Request request, string scheme, string accountName, byte[] accountKey, string stringToSign)
    {
        var signature = Convert.ToBase64String(HMACSHA256.HashData(accountKey, Encoding.UTF8.GetBytes(stringToSign)));
        request.Headers.SetValue(HttpHeader.Names.Authorization, $"{scheme} {accountName}:{signature}");
    }
}
