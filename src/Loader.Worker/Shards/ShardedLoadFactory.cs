using Loader.Worker.Configuration;
using Loader.Worker.Security;
using Loader.Worker.Storage.Blobs;
using Loader.Worker.Storage.Queues;

namespace Loader.Worker.Shards;

/// <summary>Makes the <see cref="ShardedLoad"/> the settings name, with the host's storage clients.</summary>
internal sealed class ShardedLoadFactory(BlobClientFactory blobs, QueueClientFactory queues, Redaction redaction)
{
    public ShardedLoad Create(ShardOptions shards) => new(shards, blobs, queues, redaction);
}
