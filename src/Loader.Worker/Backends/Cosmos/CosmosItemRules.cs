using System.Buffers;
using System.Globalization;
using System.Text;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>
/// Checks an item against Cosmos DB's rules before it is batched — the id's characters and length, the partition
/// key value's size, NaN and infinities (JSON has no such numbers), the 2 MB item size — and bounds its JSON size.
/// </summary>
internal static class CosmosItemRules
{
    private static readonly SearchValues<char> s_forbiddenIdCharacters = SearchValues.Create("/\\#?");

    /// <summary>
    /// A JSON property name may be any string, but a control character in a header name (a line break, a tab) is a
    /// broken export far more often than a name anyone means, and no query could name it plainly.
    /// </summary>
    public static string? CheckPropertyName(string name, string pathSeparator)
    {
        if (name.Length == 0)
        {
            return "is empty";
        }

        if (name.Split(pathSeparator).Any(segment => segment.Length == 0))
        {
            return $"has an empty name before, between or after the path separator '{pathSeparator}' (Loader:Cosmos:PathSeparator), which nests names: address.city";
        }

        foreach (var c in name)
        {
            if (char.IsControl(c))
            {
                return string.Create(CultureInfo.InvariantCulture, $"contains control character U+{(int)c:X4}; Cosmos DB property names take any other character");
            }
        }

        return null;
    }

    /// <summary>The first character of <paramref name="text"/> a Cosmos DB id may not contain, quoted; null when there is none.</summary>
    public static string? ForbiddenIdCharacter(string text)
    {
        var bad = text.AsSpan().IndexOfAny(s_forbiddenIdCharacters);
        return bad < 0 ? null : $"'{text[bad]}'";
    }

    private static string LevelName(IReadOnlyList<CosmosKeyPath> keyPaths, int level) => keyPaths.Count == 1
        ? "partition key"
        : string.Create(CultureInfo.InvariantCulture, $"partition key level {level + 1} ({keyPaths[level].Text})");

    /// <param name="partitionKey">The key's value, its levels joined for a hierarchical key (<see cref="PartitionKeyLevels"/>).</param>
    /// <param name="rowKey">The item id.</param>
    /// <param name="properties">The item's other properties.</param>
    /// <param name="keyPaths">The container's partition key paths: one level of the key per path, each held to the service's size rule.</param>
    /// <param name="pathSeparator">Text in a property name that nests it.</param>
    /// <param name="timeToLive">The ttl the settings ask for, whose column's cells must read as one; null for none.</param>
    public static EntityInspection Inspect(string partitionKey, string rowKey, ReadOnlySpan<EntityProperty> properties, IReadOnlyList<CosmosKeyPath> keyPaths, string pathSeparator, CosmosItemTimeToLive? timeToLive = null)
    {
        if (rowKey.Length == 0)
        {
            return new EntityInspection(0, "row key (the item id) is empty");
        }

        if (rowKey.Length > CosmosLimits.MaxIdLength)
        {
            return new EntityInspection(0, string.Create(CultureInfo.InvariantCulture, $"row key (the item id) is {rowKey.Length:N0} characters, longer than {CosmosLimits.MaxIdLength}"));
        }

        var bad = rowKey.AsSpan().IndexOfAny(s_forbiddenIdCharacters);
        if (bad >= 0)
        {
            return new EntityInspection(0, $"row key (the item id) contains '{rowKey[bad]}', which Cosmos DB ids may not contain");
        }

        long bytes = 2 + 8 + JsonSizes.StringUpperBound(rowKey);
        // The levels in order, each up to the next separator; the last takes the rest, so a key of one level is its whole
        // text, whatever it holds.
        var rest = partitionKey.AsSpan();
        for (var level = 0; level < keyPaths.Count; level++)
        {
            var last = level == keyPaths.Count - 1;
            var end = last ? -1 : rest.IndexOf(PartitionKeyLevels.Separator);
            if (!last && end < 0)
            {
                return new EntityInspection(0, string.Create(CultureInfo.InvariantCulture, $"partition key has {level + 1} level(s), but the container's key has {keyPaths.Count} paths"));
            }

            var value = last ? rest : rest[..end];
            rest = last ? default : rest[(end + 1)..];
            if (value.IsEmpty)
            {
                return new EntityInspection(0, $"{LevelName(keyPaths, level)} is empty");
            }

            if (keyPaths.Count > 1 && last && value.Contains(PartitionKeyLevels.Separator))
            {
                return new EntityInspection(0, string.Create(CultureInfo.InvariantCulture, $"partition key has more levels than the {keyPaths.Count} paths of the container's key"));
            }

            if (Encoding.UTF8.GetByteCount(value) > CosmosLimits.MaxPartitionKeyBytes)
            {
                return new EntityInspection(0, string.Create(CultureInfo.InvariantCulture, $"{LevelName(keyPaths, level)} is longer than {CosmosLimits.MaxPartitionKeyBytes:N0} bytes"));
            }

            // "name":"value", and for a nested path "outer":{ ... } around it.
            bytes += keyPaths[level].Text.Length + (keyPaths[level].Segments.Count * 5) + 2 + JsonSizes.StringUpperBound(value);
        }

        long largest = 0;
        var largestName = "";
        if (timeToLive is not null)
        {
            bytes += CosmosItemTimeToLive.MaxJsonBytes;
        }

        foreach (var property in properties)
        {
            if (timeToLive?.IsColumn(property) == true && !CosmosItemTimeToLive.TryRead(property, out _))
            {
                return new EntityInspection(0, CosmosItemTimeToLive.Problem(property));
            }

            // "name":value, and for a nested name "outer":{ ... } around it: at most 4 more bytes per separator.
            bytes += property.Name.Length + 4 + (4L * property.Name.AsSpan().Count(pathSeparator.AsSpan()));
            switch (property.Type)
            {
                case ColumnType.String or ColumnType.Json:
                    var size = JsonSizes.StringUpperBound(property.Type == ColumnType.String ? property.AsString() : property.AsJson()) + 2;
                    bytes += size;
                    if (size > largest)
                    {
                        (largest, largestName) = (size, property.Name);
                    }

                    break;
                case ColumnType.Double when !double.IsFinite(property.AsDouble()):
                    return new EntityInspection(0, $"column '{property.Name}': {property.AsDouble().ToString(CultureInfo.InvariantCulture)} cannot be stored: JSON has no NaN or infinity");
                case ColumnType.Boolean:
                    bytes += 5;
                    break;
                case ColumnType.DateTime or ColumnType.Guid:
                    bytes += 40;
                    break;
                case ColumnType.Binary:
                    bytes += ((property.AsBinary().Length + 2) / 3 * 4) + 2;
                    break;
                default:
                    bytes += 24;
                    break;
            }
        }

        if (bytes > CosmosLimits.MaxItemBytes)
        {
            return new EntityInspection(0, string.Create(CultureInfo.InvariantCulture,
                $"item is about {bytes:N0} bytes of JSON (column '{largestName}' alone {largest:N0}), more than the 2 MB Cosmos DB stores"));
        }

        return new EntityInspection((int)bytes + CosmosLimits.OperationOverheadBytes, null);
    }

}
