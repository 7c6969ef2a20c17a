using System.Collections.Concurrent;
using System.Text.Json;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>
/// Serializes entities as Cosmos DB items: <c>id</c> from the row key, each level of the partition key at its path,
/// typed columns as JSON numbers and booleans, dates as ISO 8601 UTC strings, Guids as strings, Json columns as the
/// value their cell holds. A column whose name holds the path separator is nested (<c>address.city</c> is
/// <c>{"address":{"city":...}}</c>), as is a nested key path (<c>/customer/id</c>). Written straight to UTF-8: the SDK
/// gets streams, so no serializer runs. The <c>ttl</c>, when the settings ask for one, is laid on the row here and
/// nowhere else (<see cref="CosmosItemTimeToLive.Apply"/>).
/// </summary>
/// <param name="keyPaths">The container's partition key paths, one per level of the key.</param>
/// <param name="pathSeparator">Text in a column name that nests it.</param>
/// <param name="timeToLive">The ttl the settings ask for; null for none.</param>
internal sealed class CosmosItemJson(IReadOnlyList<CosmosKeyPath> keyPaths, string pathSeparator, CosmosItemTimeToLive? timeToLive = null)
{
    private static readonly string[] s_id = ["id"];

    // A flat item (no nested key path, no nested column in the row) is written property by property, as it comes.
    private readonly bool _nestedKeys = keyPaths.Count > 1 || keyPaths.Any(path => path.Segments.Count > 1);

    // The segments of each column name seen, split once; up to a bound, as names a single row brings may never repeat.
    private const int SplitNamesKept = 16_384;
    private readonly ConcurrentDictionary<string, string[]> _segments = new(StringComparer.Ordinal);
    private int _segmentsKept;

    public MemoryStream Serialize(LoadEntity entity) => Write(entity, null);

    /// <summary>
    /// An existing item with the entity's properties laid over it (Merge): the later values win, the rest stays, within
    /// nested objects too (<c>address.city</c> leaves the item's <c>address.zip</c> as it was).
    /// </summary>
    public MemoryStream Merge(LoadEntity entity, JsonElement existing) => Write(entity, existing);

    private MemoryStream Write(LoadEntity entity, JsonElement? existing)
    {
        entity = timeToLive?.Apply(entity) ?? entity;
        var stream = new MemoryStream(Math.Max(256, entity.PayloadBytes * (existing is null ? 1 : 2)));
        using (var writer = new Utf8JsonWriter(stream, JsonText.WriterOptions))
        {
            if (_nestedKeys || HasNestedName(entity.Properties))
            {
                WriteNested(writer, entity, existing);
            }
            else
            {
                WriteFlat(writer, entity, existing);
            }
        }

        stream.Position = 0;
        return stream;
    }

    private string[] SegmentsOf(string name)
    {
        if (_segments.TryGetValue(name, out var segments))
        {
            return segments;
        }

        segments = name.Split(pathSeparator);
        if (Volatile.Read(ref _segmentsKept) < SplitNamesKept && _segments.TryAdd(name, segments))
        {
            Interlocked.Increment(ref _segmentsKept);
        }

        return segments;
    }

    private bool HasNestedName(IReadOnlyList<EntityProperty> properties)
    {
        foreach (var property in properties)
        {
            if (property.Name.Contains(pathSeparator, StringComparison.Ordinal))
            {
                return true;
            }
        }

        return false;
    }

    private void WriteFlat(Utf8JsonWriter writer, LoadEntity entity, JsonElement? existing)
    {
        var keyProperty = keyPaths[0].Segments[0];
        writer.WriteStartObject();
        writer.WriteString("id", entity.RowKey);
        if (keyProperty != "id")
        {
            writer.WriteString(keyProperty, entity.PartitionKey);
        }

        foreach (var property in entity.PropertySpan)
        {
            WriteProperty(writer, property.Name, property);
        }

        if (existing is { } item)
        {
            var written = new HashSet<string>(StringComparer.Ordinal) { "id", keyProperty };
            foreach (var property in entity.PropertySpan)
            {
                written.Add(property.Name);
            }

            WriteRemaining(writer, item, written, topLevel: true);
        }

        writer.WriteEndObject();
    }

    /// <summary>The item as a tree: the id, the key's levels at their paths and the columns at theirs, grouped into objects.</summary>
    private void WriteNested(Utf8JsonWriter writer, LoadEntity entity, JsonElement? existing)
    {
        var levels = keyPaths.Count == 1 ? [entity.PartitionKey] : PartitionKeyLevels.Split(entity.PartitionKey);
        var leaves = new List<Leaf>(entity.Properties.Count + levels.Length + 1) { new(s_id, entity.RowKey, default) };
        for (var i = 0; i < keyPaths.Count; i++)
        {
            if (keyPaths[i].Segments is not ["id"])
            {
                leaves.Add(new Leaf([.. keyPaths[i].Segments], levels[i], default));
            }
        }

        foreach (var property in entity.PropertySpan)
        {
            leaves.Add(new Leaf(SegmentsOf(property.Name), null, property));
        }

        writer.WriteStartObject();
        WriteObject(writer, leaves, depth: 0, existing);
        writer.WriteEndObject();
    }

    /// <summary>
    /// The members at <paramref name="depth"/> of the leaves given (all of whose segments before it are the same): each
    /// leaf that ends here as a property, and each name leaves go on through as an object of those leaves, in the order
    /// they first come; then what the existing item holds here that none of them wrote (Merge).
    /// </summary>
    private static void WriteObject(Utf8JsonWriter writer, List<Leaf> leaves, int depth, JsonElement? existing)
    {
        var written = new HashSet<string>(StringComparer.Ordinal);
        for (var i = 0; i < leaves.Count; i++)
        {
            var leaf = leaves[i];
            var name = leaf.Segments[depth];
            if (!written.Add(name))
            {
                continue; // written with the object of an earlier leaf
            }

            if (leaf.Segments.Length == depth + 1)
            {
                if (leaf.Text is { } text)
                {
                    writer.WriteString(name, text);
                }
                else
                {
                    WriteProperty(writer, name, leaf.Property);
                }

                continue;
            }

            var inner = leaves.Skip(i).Where(other => other.Segments.Length > depth + 1 && other.Segments[depth] == name).ToList();
            JsonElement? old = existing is { ValueKind: JsonValueKind.Object } item && item.TryGetProperty(name, out var member) && member.ValueKind == JsonValueKind.Object ? member : null;
            writer.WriteStartObject(name);
            WriteObject(writer, inner, depth + 1, old);
            writer.WriteEndObject();
        }

        if (existing is { ValueKind: JsonValueKind.Object } kept)
        {
            WriteRemaining(writer, kept, written, topLevel: depth == 0);
        }
    }

    /// <summary>The existing item's members not written over, but for the properties the service keeps at the top (<c>_rid</c>, <c>_etag</c>...).</summary>
    private static void WriteRemaining(Utf8JsonWriter writer, JsonElement existing, HashSet<string> written, bool topLevel)
    {
        foreach (var member in existing.EnumerateObject())
        {
            if (!written.Contains(member.Name) && !(topLevel && CosmosLimits.SystemPropertyNames.Contains(member.Name)))
            {
                member.WriteTo(writer);
            }
        }
    }

    private static void WriteProperty(Utf8JsonWriter writer, string name, EntityProperty property)
    {
        switch (property.Type)
        {
            case ColumnType.String:
                writer.WriteString(name, property.AsString());
                break;
            case ColumnType.Int32:
                writer.WriteNumber(name, property.AsInt32());
                break;
            case ColumnType.Int64:
                writer.WriteNumber(name, property.AsInt64());
                break;
            case ColumnType.Double:
                writer.WriteNumber(name, property.AsDouble());
                break;
            case ColumnType.Boolean:
                writer.WriteBoolean(name, property.AsBoolean());
                break;
            case ColumnType.DateTime:
                writer.WriteString(name, JsonText.UtcDateTime(property.AsDateTime()));
                break;
            case ColumnType.Guid:
                writer.WriteString(name, property.AsGuid().ToString("D"));
                break;
            case ColumnType.Binary:
                writer.WriteBase64String(name, property.AsBinary().Span);
                break;
            case ColumnType.Json:
                // Checked to be one JSON value when the row was mapped.
                writer.WritePropertyName(name);
                writer.WriteRawValue(property.AsJson(), skipInputValidation: true);
                break;
            default:
                throw new ArgumentOutOfRangeException(nameof(property), property.Type, "unknown column type");
        }
    }

    /// <summary>A property of the item at its path: a key's text, or a column's value.</summary>
    private readonly record struct Leaf(string[] Segments, string? Text, EntityProperty Property);
}
