using System.Net;
using Azure.Core;
using Azure.Core.Pipeline;

namespace Loader.Worker.Backends.Tables;

/// <summary>Pipeline settings of <see cref="TableRestClient"/>: no SDK retries, a connection pool sized for parallel batches.</summary>
public sealed class TableRestClientOptions : ClientOptions
{
    public TableRestClientOptions(int maxConnections = 256, TimeSpan? networkTimeout = null)
    {
        Retry.MaxRetries = 0;
        Retry.NetworkTimeout = networkTimeout ?? TimeSpan.FromSeconds(60);
        Diagnostics.IsLoggingEnabled = false;
        Diagnostics.IsDistributedTracingEnabled = false;
        Diagnostics.ApplicationId = "bulk-loader";
        Transport = new HttpClientTransport(new SocketsHttpHandler
        {
            MaxConnectionsPerServer = maxConnections,
            PooledConnectionLifetime = TimeSpan.FromMinutes(5),
            ConnectTimeout = TimeSpan.FromSeconds(10),
            AutomaticDecompression = DecompressionMethods.None,
            UseCookies = false,
        });
    }
}
