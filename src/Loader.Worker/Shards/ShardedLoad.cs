using System.Globalization;
using Loader.Worker.Configuration;
using Loader.Worker.Security;
using Loader.Worker.Storage.Blobs;
using Loader.Worker.Storage.Queues;

namespace Loader.Worker.Shards;

/// <summary>What every verb of a sharded load works with: the state folder and the queue the settings name.</summary>
internal sealed class ShardedLoad
{
    /// <exception cref="FormatException">A URL that is not a state folder's or a queue's (the validator says so first).</exception>
    /// <exception cref="InvalidOperationException">A connection string for another account.</exception>
    public ShardedLoad(ShardOptions shards, BlobClientFactory blobs, QueueClientFactory queues, Redaction redaction)
    {
        Store = new ShardStateStore(blobs, shards.State ?? "", redaction);
        Queue = QueueAddress.TryParse(shards.Queue ?? "", out var address, out var error)
            ? new ShardQueue(address, queues)
            : throw new FormatException(error);
    }

    public ShardStateStore Store { get; }

    public ShardQueue Queue { get; }

    /// <summary>What ties a manifest to a load: the settings a checkpoint is tied to, and how the input is cut.</summary>
    public static IReadOnlyDictionary<string, string> Identity(LoaderOptions settings)
    {
        var identity = new SortedDictionary<string, string>(StringComparer.Ordinal)
        {
            ["Loader:Shards:By"] = settings.Shards.By.ToString(),
        };
        foreach (var (key, value) in IdentifyingSettings.Of(settings))
        {
            identity[key] = value;
        }

        if (settings.Shards.By == ShardKind.Key)
        {
            identity["Loader:Shards:Count"] = settings.Shards.Count.ToString(CultureInfo.InvariantCulture);
        }
        else
        {
            identity["Loader:Shards:TargetBytes"] = settings.Shards.TargetBytes.ToString(CultureInfo.InvariantCulture);
        }

        return identity;
    }

    /// <summary>A shard's name: s0001, s0002, ...</summary>
    public static string ShardId(int index) => string.Create(CultureInfo.InvariantCulture, $"s{index + 1:D4}");
}
