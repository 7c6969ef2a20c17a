using System.Globalization;
using System.Text;

namespace Loader.Worker.Storage;

/// <summary>
/// The parts of a storage connection string the Table and Blob clients need: the emulator shortcut, account
/// name and key with an endpoint suffix or explicit <c>TableEndpoint</c> / <c>BlobEndpoint</c>, and shared access
/// signatures. An endpoint is null when the string neither names it nor gives an account name to derive it from.
/// </summary>
public sealed record StorageConnectionString(Uri? TableEndpoint, Uri? BlobEndpoint, string? AccountName, byte[]? AccountKey, string? SharedAccessSignature)
{
    public const string DevelopmentAccountName = "devstoreaccount1";

    // The emulator's published, well-known key; it grants nothing outside a local emulator.
    public const string DevelopmentAccountKey =
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    private const int DevelopmentTablePort = 10002;
    private const int DevelopmentBlobPort = 10000;

    /// <summary>Parses a connection string; the message of a <see cref="FormatException"/> never contains the key.</summary>
    public static StorageConnectionString Parse(string connectionString)
    {
        var parts = Split(connectionString);

        if (parts.TryGetValue("UseDevelopmentStorage", out var development) && bool.TryParse(development, out var useDevelopment) && useDevelopment)
        {
            var (scheme, host) = ("http", "127.0.0.1");
            if (parts.TryGetValue("DevelopmentStorageProxyUri", out var proxy))
            {
                var proxyUri = ParseUri(proxy, "DevelopmentStorageProxyUri");
                (scheme, host) = (proxyUri.Scheme, proxyUri.Host);
            }

            return new StorageConnectionString(
                DevelopmentEndpoint(scheme, host, DevelopmentTablePort),
                DevelopmentEndpoint(scheme, host, DevelopmentBlobPort),
                DevelopmentAccountName,
                Convert.FromBase64String(DevelopmentAccountKey),
                null);
        }

        parts.TryGetValue("AccountName", out var accountName);
        var key = ParseKey(parts);
        parts.TryGetValue("SharedAccessSignature", out var sas);
        var tableEndpoint = Endpoint(parts, "TableEndpoint", "table", accountName);
        var blobEndpoint = Endpoint(parts, "BlobEndpoint", "blob", accountName);
        if (tableEndpoint is null && blobEndpoint is null)
        {
            // Worded so that it still reads as the Table client's message of old, which callers and tests know.
            throw new FormatException("the connection string names neither TableEndpoint nor AccountName nor BlobEndpoint.");
        }

        if (key is not null && accountName is null)
        {
            accountName = AccountNameFromEndpoint((tableEndpoint ?? blobEndpoint)!);
        }

        if (key is null && sas is null)
        {
            throw new FormatException("the connection string has neither AccountKey nor SharedAccessSignature.");
        }

        return new StorageConnectionString(tableEndpoint, blobEndpoint, accountName, key, sas?.TrimStart('?'));
    }

    /// <summary>The Table endpoint, or the reason there is none in the terms of the connection string.</summary>
    public Uri RequireTableEndpoint() =>
        TableEndpoint ?? throw new FormatException("the connection string names neither TableEndpoint nor AccountName.");

    /// <summary>The Blob endpoint, or the reason there is none in the terms of the connection string.</summary>
    public Uri RequireBlobEndpoint() =>
        BlobEndpoint ?? throw new FormatException("the connection string names neither BlobEndpoint nor AccountName.");

    /// <summary>
    /// Path-style endpoints (the emulator's) carry the account in the first path segment, host-style ones in the
    /// first label of the host. See <see cref="IsPathStyle"/> for which is which.
    /// </summary>
    public static string AccountNameFromEndpoint(Uri endpoint)
    {
        if (IsPathStyle(endpoint))
        {
            var firstSegment = endpoint.AbsolutePath.Trim('/').Split('/')[0];
            return firstSegment.Length > 0 ? firstSegment : DevelopmentAccountName;
        }

        return endpoint.Host.Split('.')[0];
    }

    /// <summary>
    /// True for an emulator-style endpoint whose first path segment is the account: the host is an IP address,
    /// <c>localhost</c>, or a name without a dot (a compose service such as <c>azurite</c>). A real account's
    /// host always has dots (<c>acme.blob.core.windows.net</c>), so nothing real is mistaken for the emulator.
    /// </summary>
    public static bool IsPathStyle(Uri endpoint) =>
        endpoint.IsLoopback
        || endpoint.HostNameType is UriHostNameType.IPv4 or UriHostNameType.IPv6
        || !endpoint.Host.Contains('.', StringComparison.Ordinal);

    // The generated ToString would print the signature; a log line about the connection needs neither secret.
    private bool PrintMembers(StringBuilder builder)
    {
        builder.Append(CultureInfo.InvariantCulture, $"TableEndpoint = {TableEndpoint}, BlobEndpoint = {BlobEndpoint}, AccountName = {AccountName}, ")
            .Append(AccountKey is null ? "no AccountKey" : "AccountKey set").Append(", ")
            .Append(SharedAccessSignature is null ? "no SharedAccessSignature" : "SharedAccessSignature set");
        return true;
    }

    private static Uri DevelopmentEndpoint(string scheme, string host, int port) =>
        new(string.Create(CultureInfo.InvariantCulture, $"{scheme}://{host}:{port}/{DevelopmentAccountName}"));

    private static byte[]? ParseKey(Dictionary<string, string> parts)
    {
        if (!parts.TryGetValue("AccountKey", out var keyText))
        {
            return null;
        }

        try
        {
            return Convert.FromBase64String(keyText);
        }
        catch (FormatException)
        {
            throw new FormatException("AccountKey in the connection string is not valid base64.");
        }
    }

    private static Uri? Endpoint(Dictionary<string, string> parts, string name, string service, string? accountName)
    {
        if (parts.TryGetValue(name, out var explicitEndpoint))
        {
            return TrimTrailingSlash(ParseUri(explicitEndpoint, name));
        }

        if (accountName is null)
        {
            return null;
        }

        var protocol = parts.GetValueOrDefault("DefaultEndpointsProtocol", "https");
        var suffix = parts.GetValueOrDefault("EndpointSuffix", "core.windows.net");
        return ParseUri($"{protocol}://{accountName}.{service}.{suffix}", "AccountName/EndpointSuffix");
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
}
