using System.Net;
using Azure.Core;
using Azure.Core.Pipeline;

namespace Loader.Worker.Storage;

/// <summary>Pipeline settings the loader's storage REST clients share.</summary>
internal static class StoragePipelineDefaults
{
    /// <summary>
    /// No SDK retries (the loader retries and counts every throttled answer), no SDK logging, and a connection
    /// pool of the given size.
    /// </summary>
    public static void Apply(ClientOptions options, int maxConnections, TimeSpan? networkTimeout)
    {
        options.Retry.MaxRetries = 0;
        options.Retry.NetworkTimeout = networkTimeout ?? TimeSpan.FromSeconds(60);
        options.Diagnostics.IsLoggingEnabled = false;
        options.Diagnostics.IsDistributedTracingEnabled = false;
        options.Diagnostics.ApplicationId = "bulk-loader";
        options.Transport = new HttpClientTransport(new SocketsHttpHandler
        {
            MaxConnectionsPerServer = maxConnections,
            PooledConnectionLifetime = TimeSpan.FromMinutes(5),
            ConnectTimeout = TimeSpan.FromSeconds(10),
            AutomaticDecompression = DecompressionMethods.None,
            UseCookies = false,
        });
    }
}
