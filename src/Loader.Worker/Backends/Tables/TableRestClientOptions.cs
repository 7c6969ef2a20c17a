using Azure.Core;
using Loader.Worker.Storage;

namespace Loader.Worker.Backends.Tables;

/// <summary>Pipeline settings of <see cref="TableRestClient"/>: no SDK retries, a connection pool sized for parallel batches.</summary>
public sealed class TableRestClientOptions : ClientOptions
{
    public TableRestClientOptions(int maxConnections = 256, TimeSpan? networkTimeout = null) =>
        StoragePipelineDefaults.Apply(this, maxConnections, networkTimeout);
}
