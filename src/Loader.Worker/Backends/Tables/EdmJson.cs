using System.Globalization;
using System.Text.Json;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Tables;

/// <summary>
/// Writes and reads entities in the Table service's JSON format: plain JSON for strings, Int32 and Boolean,
/// an <c>@odata.type</c> annotation for the types JSON cannot carry on its own.
/// </summary>
internal static class EdmJson
{
    public static void WriteProperties(Utf8JsonWriter writer, IReadOnlyList<EntityProperty> properties)
    {
        foreach (var property in properties)
        {
            WriteProperty(writer, property);
        }
    }

    public static void WriteProperty(Utf8JsonWriter writer, EntityProperty property)
    {
        switch (property.Type)
        {
            case ColumnType.String:
                writer.WriteString(property.Name, property.AsString());
                break;
            case ColumnType.Int32:
                writer.WriteNumber(property.Name, property.AsInt32());
                break;
            case ColumnType.Boolean:
                writer.WriteBoolean(property.Name, property.AsBoolean());
                break;
            case ColumnType.Int64:
                WriteAnnotation(writer, property.Name, "Edm.Int64");
                writer.WriteString(property.Name, property.AsInt64().ToString(CultureInfo.InvariantCulture));
                break;
            case ColumnType.Double:
                // Always annotated: an integral double such as 5.0 would otherwise be stored as Int32.
                WriteAnnotation(writer, property.Name, "Edm.Double");
                WriteDouble(writer, property.Name, property.AsDouble());
                break;
            case ColumnType.DateTime:
                WriteAnnotation(writer, property.Name, "Edm.DateTime");
                writer.WriteString(property.Name, JsonText.UtcDateTime(property.AsDateTime()));
                break;
            case ColumnType.Guid:
                WriteAnnotation(writer, property.Name, "Edm.Guid");
                writer.WriteString(property.Name, property.AsGuid().ToString("D"));
                break;
            default:
                throw new ArgumentOutOfRangeException(nameof(property), property.Type, "unknown column type");
        }
    }

    private static void WriteAnnotation(Utf8JsonWriter writer, string name, string edmType) =>
        writer.WriteString(name + "@odata.type", edmType);

    private static void WriteDouble(Utf8JsonWriter writer, string name, double value)
    {
        if (double.IsNaN(value))
        {
            writer.WriteString(name, "NaN");
        }
        else if (double.IsPositiveInfinity(value))
        {
            writer.WriteString(name, "Infinity");
        }
        else if (double.IsNegativeInfinity(value))
        {
            writer.WriteString(name, "-Infinity");
        }
        else
        {
            writer.WriteNumber(name, value);
        }
    }

    /// <summary>Reads one entity object of a query response into typed values.</summary>
    public static TableEntity ReadEntity(JsonElement element)
    {
        var annotations = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var member in element.EnumerateObject())
        {
            if (member.Name.EndsWith("@odata.type", StringComparison.Ordinal))
            {
                annotations[member.Name[..^"@odata.type".Length]] = member.Value.GetString() ?? "";
            }
        }

        string partitionKey = "", rowKey = "";
        DateTimeOffset? timestamp = null;
        var properties = new Dictionary<string, object>(StringComparer.Ordinal);
        foreach (var member in element.EnumerateObject())
        {
            var name = member.Name;
            if (name.StartsWith("odata.", StringComparison.Ordinal) || name.Contains('@', StringComparison.Ordinal))
            {
                continue;
            }

            switch (name)
            {
                case "PartitionKey":
                    partitionKey = member.Value.GetString() ?? "";
                    continue;
                case "RowKey":
                    rowKey = member.Value.GetString() ?? "";
                    continue;
                case "Timestamp":
                    timestamp = DateTimeOffset.Parse(member.Value.GetString()!, CultureInfo.InvariantCulture);
                    continue;
            }

            properties[name] = ReadValue(member.Value, annotations.GetValueOrDefault(name));
        }

        return new TableEntity(partitionKey, rowKey, properties, timestamp);
    }

    private static object ReadValue(JsonElement value, string? edmType) => edmType switch
    {
        "Edm.Int64" => long.Parse(value.GetString()!, CultureInfo.InvariantCulture),
        "Edm.Int32" => value.GetInt32(),
        "Edm.Double" => value.ValueKind == JsonValueKind.String
            ? double.Parse(value.GetString()!, CultureInfo.InvariantCulture)
            : value.GetDouble(),
        "Edm.DateTime" => DateTime.Parse(value.GetString()!, CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal),
        "Edm.Guid" => Guid.Parse(value.GetString()!),
        "Edm.Binary" => Convert.FromBase64String(value.GetString()!),
        "Edm.Boolean" => value.GetBoolean(),
        "Edm.String" => value.GetString()!,
        _ => value.ValueKind switch
        {
            JsonValueKind.String => value.GetString()!,
            JsonValueKind.True => true,
            JsonValueKind.False => false,
            JsonValueKind.Number when value.TryGetInt32(out var int32) => int32,
            JsonValueKind.Number => value.GetDouble(),
            _ => value.GetRawText(),
        },
    };
}
