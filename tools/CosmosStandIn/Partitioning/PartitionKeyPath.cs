using System.Text.Json;

namespace Loader.CosmosStandIn.Partitioning;

/// <summary>
/// One path of a container's partition key definition, such as <c>/pk</c> or the nested <c>/customer/id</c>: the
/// property names to follow from the item's root. A segment may be quoted (<c>/"first name"</c>), as the service allows.
/// </summary>
public sealed record PartitionKeyPath(string Text, IReadOnlyList<string> Segments)
{
    public static PartitionKeyPath Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var segments = text.Split('/', StringSplitOptions.RemoveEmptyEntries)
            .Select(segment => segment.Length >= 2 && segment[0] == '"' && segment[^1] == '"' ? segment[1..^1] : segment)
            .ToList();
        return new PartitionKeyPath(text, segments);
    }

    /// <summary>The item's value at this path; false when the item does not define it.</summary>
    public bool TryGetValue(JsonElement item, out JsonElement value)
    {
        value = item;
        foreach (var segment in Segments)
        {
            if (value.ValueKind != JsonValueKind.Object || !value.TryGetProperty(segment, out value))
            {
                return false;
            }
        }

        return Segments.Count > 0;
    }

    /// <summary>Whether a change at <paramref name="segments"/> (a patch path) would change the value at this path: one is a prefix of the other.</summary>
    public bool Overlaps(IReadOnlyList<string> segments)
    {
        ArgumentNullException.ThrowIfNull(segments);
        var common = Math.Min(segments.Count, Segments.Count);
        for (var i = 0; i < common; i++)
        {
            if (!string.Equals(segments[i], Segments[i], StringComparison.Ordinal))
            {
                return false;
            }
        }

        return true;
    }
}
