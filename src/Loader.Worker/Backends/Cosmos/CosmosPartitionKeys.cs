using Loader.Abstractions;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>The SDK's partition key of a batch's key: its one value, or a hierarchical key's levels in order (<see cref="PartitionKeyBuilder"/>).</summary>
internal static class CosmosPartitionKeys
{
    public static PartitionKey Of(string key, int levels)
    {
        if (levels == 1)
        {
            return new PartitionKey(key);
        }

        var builder = new PartitionKeyBuilder();
        foreach (var level in PartitionKeyLevels.Split(key))
        {
            builder.Add(level);
        }

        return builder.Build();
    }
}
