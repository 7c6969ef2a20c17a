using System.Text.Json;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>
/// Serializes entities as Cosmos DB items: <c>id</c> from the row key, the partition key value at its property,
/// typed columns as JSON numbers and booleans, dates as ISO 8601 UTC strings, Guids as strings.
/// Written straight to UTF-8: the SDK gets streams, so no serializer runs.
/// </summary>
internal sealed class CosmosItemJson(string partitionKeyProperty)
{
    public MemoryStream Serialize(LoadEntity entity)
    {
        var stream = new MemoryStream(Math.Max(256, entity.PayloadBytes));
        using (var writer = new Utf8JsonWriter(stream, JsonText.WriterOptions))
        {
            writer.WriteStartObject();
            WriteKeys(writer, entity);
            foreach (var property in entity.Properties)
            {
                WriteProperty(writer, property);
            }

            writer.WriteEndObject();
        }

        stream.Position = 0;
        return stream;
    }

    /// <summary>An existing item with the entity's properties laid over it (Merge): the later values win, the rest stays.</summary>
    public MemoryStream Merge(LoadEntity entity, JsonElement existing)
    {
        var stream = new MemoryStream(Math.Max(256, entity.PayloadBytes * 2));
        using (var writer = new Utf8JsonWriter(stream, JsonText.WriterOptions))
        {
            writer.WriteStartObject();
            WriteKeys(writer, entity);
            var written = new HashSet<string>(StringComparer.Ordinal) { "id", partitionKeyProperty };
            foreach (var property in entity.Properties)
            {
                WriteProperty(writer, property);
                written.Add(property.Name);
            }

            foreach (var member in existing.EnumerateObject())
            {
                if (!written.Contains(member.Name) && !CosmosLimits.SystemPropertyNames.Contains(member.Name))
                {
                    member.WriteTo(writer);
                }
            }

            writer.WriteEndObject();
        }

        stream.Position = 0;
        return stream;
    }

    private void WriteKeys(Utf8JsonWriter writer, LoadEntity entity)
    {
        writer.WriteString("id", entity.RowKey);
        writer.WriteString(partitionKeyProperty, entity.PartitionKey);
    }

    private static void WriteProperty(Utf8JsonWriter writer, EntityProperty property)
    {
        switch (property.Type)
        {
            case ColumnType.String:
                writer.WriteString(property.Name, property.AsString());
                break;
            case ColumnType.Int32:
                writer.WriteNumber(property.Name, property.AsInt32());
                break;
            case ColumnType.Int64:
                writer.WriteNumber(property.Name, property.AsInt64());
                break;
            case ColumnType.Double:
                writer.WriteNumber(property.Name, property.AsDouble());
                break;
            case ColumnType.Boolean:
                writer.WriteBoolean(property.Name, property.AsBoolean());
                break;
            case ColumnType.DateTime:
                writer.WriteString(property.Name, JsonText.UtcDateTime(property.AsDateTime()));
                break;
            case ColumnType.Guid:
                writer.WriteString(property.Name, property.AsGuid().ToString("D"));
                break;
            default:
                throw new ArgumentOutOfRangeException(nameof(property), property.Type, "unknown column type");
        }
    }
}
