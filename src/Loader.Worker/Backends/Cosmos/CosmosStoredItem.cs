using System.Text.Json;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>An item read back from a logical partition, compared with a row as <paramref name="json"/> writes it, by <see cref="CosmosItemComparison"/>.</summary>
/// <param name="item">The item, alive while its page is.</param>
/// <param name="json">How the adapter writes a row.</param>
internal sealed class CosmosStoredItem(JsonElement item, CosmosItemJson json) : IStoredEntity
{
    public string RowKey { get; } = item.TryGetProperty("id", out var id) ? id.GetString() ?? "" : "";

    public PropertyDifference? Compare(LoadEntity row, bool othersAllowed)
    {
        using var written = JsonDocument.Parse(json.Serialize(row));
        return CosmosItemComparison.Differences(written.RootElement, item, othersAllowed).First;
    }
}
