namespace Loader.Worker.Backends.Cosmos;

/// <summary>The account endpoint of a Cosmos DB connection string, checked without ever quoting the key.</summary>
internal static class CosmosConnectionString
{
    /// <summary>The <c>AccountEndpoint</c>; throws <see cref="FormatException"/> naming what is missing.</summary>
    public static Uri Endpoint(string connectionString)
    {
        string? endpoint = null, key = null;
        foreach (var segment in connectionString.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var equals = segment.IndexOf('=', StringComparison.Ordinal);
            if (equals <= 0)
            {
                throw new FormatException("a segment is not of the form Name=Value.");
            }

            var name = segment[..equals];
            if (name.Equals("AccountEndpoint", StringComparison.OrdinalIgnoreCase))
            {
                endpoint = segment[(equals + 1)..];
            }
            else if (name.Equals("AccountKey", StringComparison.OrdinalIgnoreCase))
            {
                key = segment[(equals + 1)..];
            }
        }

        if (endpoint is null || !Uri.TryCreate(endpoint, UriKind.Absolute, out var uri) || uri.Scheme != Uri.UriSchemeHttps)
        {
            throw new FormatException("it has no AccountEndpoint=https://... segment.");
        }

        return string.IsNullOrEmpty(key) ? throw new FormatException("it has no AccountKey segment.") : uri;
    }

    /// <summary>Local hosts: where the emulator runs, and the only hosts whose certificate may be trusted blindly.</summary>
    public static bool IsLocal(Uri endpoint) =>
        endpoint.IsLoopback || endpoint.Host.Equals("localhost", StringComparison.OrdinalIgnoreCase);
}
