using System.Text.Json;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Tests.Backends.Cosmos;

/// <summary>Reads a Cosmos DB item's JSON back into plain values (strings, longs or doubles, booleans) for comparisons.</summary>
internal static class CosmosItems
{
    private static readonly HashSet<string> s_system = ["id", "pk", "_rid", "_self", "_etag", "_attachments", "_ts"];

    /// <summary>The stored properties of an item (keys excluded), read by its id and partition key; null when it is not there.</summary>
    public static async Task<IReadOnlyDictionary<string, object>?> ReadAsync(Container container, string partitionKey, string id, CancellationToken cancellationToken)
    {
        using var response = await container.ReadItemStreamAsync(id, new PartitionKey(partitionKey), cancellationToken: cancellationToken);
        if (!response.IsSuccessStatusCode)
        {
            return null;
        }

        using var document = await JsonDocument.ParseAsync(response.Content, cancellationToken: cancellationToken);
        return Properties(document.RootElement);
    }

    public static IReadOnlyDictionary<string, object> Properties(JsonElement item)
    {
        var values = new Dictionary<string, object>(StringComparer.Ordinal);
        foreach (var member in item.EnumerateObject())
        {
            if (s_system.Contains(member.Name))
            {
                continue;
            }

            values[member.Name] = member.Value.ValueKind switch
            {
                JsonValueKind.String => member.Value.GetString()!,
                JsonValueKind.True => true,
                JsonValueKind.False => false,
                JsonValueKind.Number when member.Value.TryGetInt64(out var integer) => integer,
                JsonValueKind.Number => member.Value.GetDouble(),
                _ => member.Value.GetRawText(),
            };
        }

        return values;
    }
}
