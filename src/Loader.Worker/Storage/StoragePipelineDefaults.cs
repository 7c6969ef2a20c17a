using System.Net;
using Azure.Core;
using Azure.Core.Pipeline;

namespace Loader.Worker.Storage;

/// <summary>Pipeline settings the loader gives the storage SDK clients (Tables and Blobs).</summary>
internal static class StoragePipelineDefaults
{
    /// <summary>
    /// No SDK logging or tracing (the loader logs what matters, free of secrets), the given retries and network
    /// timeout, and a connection pool of the given size.
    /// </summary>
    public static T Apply<T>(T options, int maxConnections, int maxRetries, TimeSpan networkTimeout)
        where T : ClientOptions
    {
        options.Retry.MaxRetries = maxRetries;
        options.Retry.NetworkTimeout = networkTimeout;
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
        return options;
    }
}
