using System.Text.Json;

namespace Loader.Worker.Tests.Backends.Cosmos;

/// <summary>Reads a Cosmos DB item's JSON back into plain values (strings, longs or doubles, booleans) for comparisons.</summary>
internal static class CosmosItems
{
    private static readonly HashSet<string> s_system = ["id", "pk", "_rid", "_self", "_etag", "_attachments", "_ts"];

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
