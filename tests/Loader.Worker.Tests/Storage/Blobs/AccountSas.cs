using System.Globalization;
using System.Security.Cryptography;
using System.Text;

namespace Loader.Worker.Tests.Storage.Blobs;

/// <summary>
/// Mints an account shared access signature (version 2020-12-06, the Blob service) the way a user's tooling would
/// (<c>az storage account generate-sas</c>), so the loader's SAS sign-in can be tested against Azurite. The mirror
/// has no Azure.Storage.Blobs, whose builder would otherwise do this.
/// </summary>
internal static class AccountSas
{
    private const string Version = "2020-12-06";

    /// <summary>The query string (without <c>?</c>) of a signature for the Blob service of the account; permissions in the service's canonical order, e.g. <c>rl</c> (read, list).</summary>
    public static string Create(string accountName, string accountKey, string permissions, DateTimeOffset expiry)
    {
        var expires = expiry.UtcDateTime.ToString("yyyy-MM-ddTHH:mm:ssZ", CultureInfo.InvariantCulture);
        // account, permissions, services, resource types, start, expiry, IP range, protocol, version, encryption scope, and a final newline.
        var stringToSign = string.Join('\n', accountName, permissions, "b", "sco", "", expires, "", "https,http", Version, "", "");
        var signature = Convert.ToBase64String(HMACSHA256.HashData(Convert.FromBase64String(accountKey), Encoding.UTF8.GetBytes(stringToSign)));
        return $"sv={Version}&ss=b&srt=sco&sp={permissions}&se={Uri.EscapeDataString(expires)}&spr=https,http&sig={Uri.EscapeDataString(signature)}";
    }
}
