using System.Text.Encodings.Web;
using System.Text.Json;

namespace Loader.CosmosStandIn.Partitioning;

/// <summary>
/// A partition key value as the SDK sends it, in <c>x-ms-documentdb-partitionkey</c> or a bulk operation's own
/// <c>partitionKey</c> field: a JSON array of one component per path of the definition, in order (<c>["LAX"]</c>,
/// <c>["acme","u1","s9"]</c>). Strings may come \u-escaped and numbers as doubles (<c>[5.0]</c>); a component the
/// item leaves undefined is <c>{}</c> (<c>PartitionKey.None</c>).
/// </summary>
public sealed class PartitionKeyValue
{
    private static readonly JsonWriterOptions s_canonical = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    private PartitionKeyValue(string json, IReadOnlyList<JsonElement> components)
    {
        Json = json;
        Components = components;
        Canonical = CanonicalOf(components);
    }

    /// <summary>The value as it was sent.</summary>
    public string Json { get; }

    public IReadOnlyList<JsonElement> Components { get; }

    /// <summary>
    /// One text for each logical value however it was written (escapes, <c>5</c> or <c>5.0</c>): what locks,
    /// budgets and stored items are keyed by.
    /// </summary>
    public string Canonical { get; }

    /// <summary>Reads a value as the SDK sends it; null when it is not a JSON array of components (a bare value counts as one component).</summary>
    public static PartitionKeyValue? TryParse(string? json)
    {
        if (string.IsNullOrWhiteSpace(json))
        {
            return null;
        }

        try
        {
            using var document = JsonDocument.Parse(json);
            var root = document.RootElement;
            var components = root.ValueKind == JsonValueKind.Array
                ? root.EnumerateArray().Select(component => component.Clone()).ToList()
                : [root.Clone()];
            return new PartitionKeyValue(json, components);
        }
        catch (JsonException)
        {
            return null;
        }
    }

    /// <summary>The value made of <paramref name="components"/>, as the SDK would send it.</summary>
    public static PartitionKeyValue Of(params object?[] components) =>
        TryParse(JsonSerializer.Serialize(components)) ?? throw new ArgumentException("not a partition key value", nameof(components));

    /// <summary>Whether this names every level of <paramref name="definition"/>, as a write or a point read must.</summary>
    public bool IsComplete(PartitionKeyDefinition definition) => Components.Count == definition.Paths.Count;

    /// <summary>
    /// Whether <paramref name="item"/> belongs to this logical partition: its value at each path equals the component
    /// for that level (an undefined component, <c>{}</c>, wants the path undefined). A value with fewer components
    /// than paths (a prefix of a hierarchical key) matches every item under that prefix.
    /// </summary>
    public bool Matches(JsonElement item, PartitionKeyDefinition definition)
    {
        ArgumentNullException.ThrowIfNull(definition);
        if (Components.Count > definition.Paths.Count)
        {
            return false;
        }

        for (var i = 0; i < Components.Count; i++)
        {
            var expected = Components[i];
            var defined = definition.Paths[i].TryGetValue(item, out var actual);
            var match = IsUndefined(expected) ? !defined : defined && JsonElement.DeepEquals(actual, expected);
            if (!match)
            {
                return false;
            }
        }

        return true;
    }

    public override string ToString() => Json;

    private static bool IsUndefined(JsonElement component) =>
        component.ValueKind == JsonValueKind.Object && !component.EnumerateObject().Any();

    private static string CanonicalOf(IReadOnlyList<JsonElement> components)
    {
        using var buffer = new MemoryStream();
        using (var writer = new Utf8JsonWriter(buffer, s_canonical))
        {
            writer.WriteStartArray();
            foreach (var component in components)
            {
                switch (component.ValueKind)
                {
                    case JsonValueKind.String:
                        writer.WriteStringValue(component.GetString());
                        break;
                    case JsonValueKind.Number:
                        // 5 and 5.0 are one value to the service; the round-trip form of the double is one text for both.
                        writer.WriteNumberValue(component.GetDouble());
                        break;
                    default:
                        component.WriteTo(writer);
                        break;
                }
            }

            writer.WriteEndArray();
        }

        return System.Text.Encoding.UTF8.GetString(buffer.GetBuffer(), 0, (int)buffer.Length);
    }
}
