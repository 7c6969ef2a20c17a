using Azure.Core;

namespace Loader.Worker.Storage.Blobs;

/// <summary>
/// Pipeline settings of <see cref="BlobRestClient"/>: no SDK retries (callers decide), a small connection pool —
/// a load reads one blob at a time, a block ahead.
/// </summary>
public sealed class BlobRestClientOptions : ClientOptions
{
    public BlobRestClientOptions(int maxConnections = 16, TimeSpan? networkTimeout = null) =>
        StoragePipelineDefaults.Apply(this, maxConnections, networkTimeout);
}
