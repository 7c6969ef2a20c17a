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
    public static string? CheckPropertyName(string name)
    {
        if (name.Length == 0)
        {
            return "is empty";
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

    public static EntityInspection Inspect(string partitionKey, string rowKey, ReadOnlySpan<EntityProperty> properties, string partitionKeyProperty)
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

        if (partitionKey.Length == 0)
        {
            return new EntityInspection(0, "partition key is empty");
        }

        if (Encoding.UTF8.GetByteCount(partitionKey) > CosmosLimits.MaxPartitionKeyBytes)
        {
            return new EntityInspection(0, string.Create(CultureInfo.InvariantCulture, $"partition key is longer than {CosmosLimits.MaxPartitionKeyBytes:N0} bytes"));
        }

        long bytes = 2 + 8 + JsonSizes.StringUpperBound(rowKey) + partitionKeyProperty.Length + 6 + JsonSizes.StringUpperBound(partitionKey);
        long largest = 0;
        var largestName = "";
        foreach (var property in properties)
        {
            bytes += property.Name.Length + 4;
            switch (property.Type)
            {
                case ColumnType.String:
                    var size = JsonSizes.StringUpperBound(property.AsString()) + 2;
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
