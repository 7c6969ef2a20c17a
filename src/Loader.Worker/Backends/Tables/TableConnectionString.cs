using System.Globalization;

namespace Loader.Worker.Backends.Tables;

/// <summary>
/// The parts of a storage connection string the Table client needs. Understands the emulator shortcut,
/// account name and key with endpoint suffix or explicit <c>TableEndpoint</c>, and shared access signatures.
/// </summary>
public sealed record TableConnectionString(Uri TableEndpoint, string? AccountName, byte[]? AccountKey, string? SharedAccessSignature)
{
    public const string DevelopmentAccountName = "devstoreaccount1";

    // The emulator's published, well-known key; it grants nothing outside a local emulator.
    public const string DevelopmentAccountKey =
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    private static readonly Uri s_developmentTableEndpoint = new("http://127.0.0.1:10002/devstoreaccount1");

    /// <summary>Parses a connection string; the message of a <see cref="FormatException"/> never contains the key.</summary>
    public static TableConnectionString Parse(string connectionString)
    {
        var parts = Split(connectionString);

        if (parts.TryGetValue("UseDevelopmentStorage", out var development) && bool.TryParse(development, out var useDevelopment) && useDevelopment)
        {
            var endpoint = s_developmentTableEndpoint;
            if (parts.TryGetValue("DevelopmentStorageProxyUri", out var proxy))
            {
                var proxyUri = ParseUri(proxy, "DevelopmentStorageProxyUri");
                endpoint = new Uri($"{proxyUri.Scheme}://{proxyUri.Host}:10002/{DevelopmentAccountName}");
            }

            return new TableConnectionString(endpoint, DevelopmentAccountName, Convert.FromBase64String(DevelopmentAccountKey), null);
        }

        parts.TryGetValue("AccountName", out var accountName);
        byte[]? key = null;
        if (parts.TryGetValue("AccountKey", out var keyText))
        {
            try
            {
                key = Convert.FromBase64String(keyText);
            }
            catch (FormatException)
            {
                throw new FormatException("AccountKey in the connection string is not valid base64.");
            }
        }

        parts.TryGetValue("SharedAccessSignature", out var sas);
        Uri tableEndpoint;
        if (parts.TryGetValue("TableEndpoint", out var explicitEndpoint))
        {
            tableEndpoint = ParseUri(explicitEndpoint, "TableEndpoint");
        }
        else if (accountName is not null)
        {
            var protocol = parts.GetValueOrDefault("DefaultEndpointsProtocol", "https");
            var suffix = parts.GetValueOrDefault("EndpointSuffix", "core.windows.net");
            tableEndpoint = ParseUri($"{protocol}://{accountName}.table.{suffix}", "AccountName/EndpointSuffix");
        }
        else
        {
            throw new FormatException("the connection string names neither TableEndpoint nor AccountName.");
        }

        if (key is not null && accountName is null)
        {
            accountName = AccountNameFromEndpoint(tableEndpoint);
        }

        if (key is null && sas is null)
        {
            throw new FormatException("the connection string has neither AccountKey nor SharedAccessSignature.");
        }

        return new TableConnectionString(TrimTrailingSlash(tableEndpoint), accountName, key, sas?.TrimStart('?'));
    }

    private static Dictionary<string, string> Split(string connectionString)
    {
        var parts = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        foreach (var segment in connectionString.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var equals = segment.IndexOf('=', StringComparison.Ordinal);
            if (equals <= 0)
            {
                throw new FormatException(string.Create(CultureInfo.InvariantCulture, $"connection string segment {parts.Count + 1} is not of the form Name=Value."));
            }

            parts[segment[..equals].Trim()] = segment[(equals + 1)..].Trim();
        }

        return parts;
    }

    private static Uri ParseUri(string text, string name) =>
        Uri.TryCreate(text, UriKind.Absolute, out var uri) && (uri.Scheme == Uri.UriSchemeHttp || uri.Scheme == Uri.UriSchemeHttps)
            ? uri
            : throw new FormatException($"{name} in the connection string is not an http(s) URL.");

    private static Uri TrimTrailingSlash(Uri uri) =>
        uri.AbsolutePath.EndsWith('/') && uri.AbsolutePath.Length > 1
            ? new Uri(uri.GetLeftPart(UriPartial.Authority) + uri.AbsolutePath.TrimEnd('/'))
            : uri;

    /// <summary>Host-style endpoints carry the account in the host; path-style (emulator) ones in the first segment.</summary>
    internal static string AccountNameFromEndpoint(Uri endpoint)
    {
        var firstSegment = endpoint.AbsolutePath.Trim('/').Split('/')[0];
        if (endpoint.IsLoopback || endpoint.HostNameType is UriHostNameType.IPv4 or UriHostNameType.IPv6)
        {
            return firstSegment.Length > 0 ? firstSegment : DevelopmentAccountName;
        }

        return endpoint.Host.Split('.')[0];
    }
}
