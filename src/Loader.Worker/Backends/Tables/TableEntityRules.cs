using System.Buffers;
using System.Globalization;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Tables;

/// <summary>
/// Checks an entity against the Table service's rules and bounds its share of a transaction request, so a
/// row the service would refuse is rejected with a reason before it is batched, and batches stay under 4 MiB.
/// </summary>
internal sealed class TableEntityRules(int tableUrlBytes)
{
    // '/', '\', '#', '?' and the control characters U+0000-U+001F, U+007F-U+009F.
    private static readonly SearchValues<char> s_forbiddenKeyCharacters = SearchValues.Create(
        "/\\#?" + new string([.. Enumerable.Range(0, 0x20).Select(c => (char)c)]) + new string([.. Enumerable.Range(0x7F, 0x21).Select(c => (char)c)]));

    public EntityInspection Inspect(string partitionKey, string rowKey, ReadOnlySpan<EntityProperty> properties)
    {
        var violation = KeyViolation("partition key", partitionKey) ?? KeyViolation("row key", rowKey);
        if (violation is not null)
        {
            return new EntityInspection(0, violation);
        }

        if (properties.Length > TableLimits.MaxCustomProperties)
        {
            return new EntityInspection(0, string.Create(CultureInfo.InvariantCulture,
                $"{properties.Length} properties, more than the {TableLimits.MaxCustomProperties} an entity may have"));
        }

        // Entity size as the service counts it: 4 bytes, keys in UTF-16, per property 8 bytes + name in UTF-16 + value.
        long storedBytes = 4 + ((partitionKey.Length + rowKey.Length) * 2L);
        long payloadBytes = TableLimits.OperationOverheadBytes + tableUrlBytes
            + (15L * (partitionKey.Length + rowKey.Length)); // keys: percent-encoded UTF-8 in the URL, JSON in an Insert body
        foreach (var property in properties)
        {
            var nameLength = property.Name.Length;
            storedBytes += 8 + (nameLength * 2L);
            payloadBytes += (2L * nameLength) + 40; // name twice at most (value and @odata.type), quotes, colon, type
            switch (property.Type)
            {
                case ColumnType.String:
                    var text = property.AsString();
                    if (text.Length > TableLimits.MaxStringLength)
                    {
                        return new EntityInspection(0, string.Create(CultureInfo.InvariantCulture,
                            $"column '{property.Name}': {text.Length:N0} characters, longer than the {TableLimits.MaxStringLength:N0} (64 KiB) a string property may hold"));
                    }

                    storedBytes += (text.Length * 2L) + 4;
                    payloadBytes += JsonSizes.StringUpperBound(text);
                    break;
                case ColumnType.DateTime:
                    if (property.AsDateTime() < TableLimits.MinDateTime)
                    {
                        return new EntityInspection(0, $"column '{property.Name}': dates before 1601-01-01 cannot be stored");
                    }

                    storedBytes += 8;
                    payloadBytes += 30;
                    break;
                case ColumnType.Binary:
                    var bytes = property.AsBinary().Length;
                    if (bytes > TableLimits.MaxBinaryLength)
                    {
                        return new EntityInspection(0, string.Create(CultureInfo.InvariantCulture,
                            $"column '{property.Name}': {bytes:N0} bytes, more than the {TableLimits.MaxBinaryLength:N0} (64 KiB) a binary property may hold"));
                    }

                    storedBytes += bytes + 4;
                    payloadBytes += ((bytes + 2) / 3 * 4) + 20;
                    break;
                case ColumnType.Guid:
                    storedBytes += 16;
                    payloadBytes += 38;
                    break;
                case ColumnType.Boolean:
                    storedBytes += 1;
                    payloadBytes += 5;
                    break;
                case ColumnType.Int32:
                    storedBytes += 4;
                    payloadBytes += 11;
                    break;
                default:
                    storedBytes += 8;
                    payloadBytes += 26;
                    break;
            }
        }

        if (storedBytes > TableLimits.MaxEntityBytes)
        {
            return new EntityInspection(0, string.Create(CultureInfo.InvariantCulture,
                $"entity is {storedBytes:N0} bytes, larger than the 1 MiB the service stores"));
        }

        return new EntityInspection((int)Math.Min(int.MaxValue, payloadBytes), null);
    }

    /// <summary>Property names are case-sensitive C# identifiers of up to 255 characters.</summary>
    public static string? CheckPropertyName(string name)
    {
        if (name.Length == 0)
        {
            return "is empty";
        }

        if (name.Length > TableLimits.MaxPropertyNameLength)
        {
            return string.Create(CultureInfo.InvariantCulture, $"is {name.Length} characters long, more than {TableLimits.MaxPropertyNameLength}");
        }

        if (!(char.IsLetter(name[0]) || name[0] == '_'))
        {
            return "must start with a letter or '_'";
        }

        foreach (var c in name)
        {
            if (c == '.')
            {
                return "contains '.': Table Storage entities are flat, so a nested name (address.city, for Cosmos DB) cannot be written; property names hold only letters, digits and '_'";
            }

            if (!(char.IsLetterOrDigit(c) || c == '_'))
            {
                return $"contains {Describe(c)}; property names hold only letters, digits and '_'";
            }
        }

        return null;
    }

    /// <summary>The first character of <paramref name="text"/> a Table key may not contain, described; null when there is none.</summary>
    public static string? ForbiddenKeyCharacter(string text)
    {
        var bad = text.AsSpan().IndexOfAny(s_forbiddenKeyCharacters);
        return bad < 0 ? null : Describe(text[bad]);
    }

    private static string? KeyViolation(string what, string key)
    {
        if (key.Length == 0)
        {
            return $"{what} is empty";
        }

        if (key.Length > TableLimits.MaxKeyLength)
        {
            return string.Create(CultureInfo.InvariantCulture, $"{what} is {key.Length:N0} characters, longer than the {TableLimits.MaxKeyLength:N0} (1 KiB) a Table key may hold");
        }

        var bad = key.AsSpan().IndexOfAny(s_forbiddenKeyCharacters);
        return bad < 0
            ? null
            : string.Create(CultureInfo.InvariantCulture, $"{what} contains {Describe(key[bad])}, which Table keys may not contain");
    }

    internal static string Describe(char c) => c switch
    {
        < ' ' or (>= '\u007F' and <= '\u009F') => string.Create(CultureInfo.InvariantCulture, $"control character U+{(int)c:X4}"),
        _ => $"'{c}'",
    };
}
