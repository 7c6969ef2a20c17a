using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Shards;

/// <summary>The settings of a range-sharded load of a blob prefix into a table of the same Azurite, keyed <c>{pk}</c>/<c>{id}</c>, with its plan's state and queue named after the given name.</summary>
internal static class RangeShardSettings
{
    public static Dictionary<string, string?> For(AzuriteProcess azurite, string prefix, string table, string name, long targetBytes) => new()
    {
        ["Loader:Input"] = $"{azurite.BlobEndpoint}/input/{prefix}",
        ["Loader:Blob:ConnectionString"] = azurite.ConnectionString,
        ["Loader:Tables:ConnectionString"] = azurite.ConnectionString,
        ["Loader:Tables:Table"] = table,
        ["Loader:PartitionKey"] = "{pk}",
        ["Loader:RowKey"] = "{id}",
        ["Loader:Shards:By"] = "Range",
        ["Loader:Shards:TargetBytes"] = targetBytes.ToString(System.Globalization.CultureInfo.InvariantCulture),
        ["Loader:Shards:State"] = $"{azurite.BlobEndpoint}/state/{name}/",
        ["Loader:Shards:Queue"] = $"{azurite.QueueEndpoint}/{name}-shards",
        ["Loader:Shards:VisibilityTimeout"] = "00:00:20",
        ["Loader:Shards:RetryDelay"] = "00:00:00",
        ["Loader:Shards:PollInterval"] = "00:00:01",
        ["Loader:LogFormat"] = "Text",
    };
}
