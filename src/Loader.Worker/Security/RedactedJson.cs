using System.Reflection;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.Json.Serialization.Metadata;

namespace Loader.Worker.Security;

/// <summary>
/// A value as JSON with <see cref="Redaction"/> applied to every string in it, before it is encoded: the rule sees a
/// value as it is, not escaped (<c>\u0026</c>, <c>\u002B</c>), and what it removes cannot come back through an escape.
/// Property names are left alone (the document's own names and setting keys), and so are properties marked
/// <see cref="UnredactedAttribute"/>.
/// </summary>
internal static class RedactedJson
{
    public static BinaryData Serialize<T>(T value, JsonSerializerOptions options, Redaction redaction) =>
        BinaryData.FromString(ToText(value, options, redaction));

    public static string ToText<T>(T value, JsonSerializerOptions options, Redaction redaction) =>
        Redacted(value, options, redaction)?.ToJsonString(options) ?? "null";

    /// <summary>A copy of <paramref name="value"/> made through its redacted JSON: for a writer that encodes it otherwise (HTML).</summary>
    public static T Copy<T>(T value, JsonSerializerOptions options, Redaction redaction) =>
        Redacted(value, options, redaction).Deserialize<T>(options)
        ?? throw new InvalidOperationException($"a {typeof(T).Name} did not survive its JSON");

    private static JsonNode? Redacted<T>(T value, JsonSerializerOptions options, Redaction redaction)
    {
        var node = JsonSerializer.SerializeToNode(value, options);
        return Redact(node, options.GetTypeInfo(value?.GetType() ?? typeof(T)), options, redaction);
    }

    /// <summary>The node with its strings redacted, changed in place; <paramref name="type"/> is what it was serialized from, when known.</summary>
    private static JsonNode? Redact(JsonNode? node, JsonTypeInfo? type, JsonSerializerOptions options, Redaction redaction)
    {
        switch (node)
        {
            case JsonObject properties:
                for (var i = 0; i < properties.Count; i++)
                {
                    var (name, child) = properties.GetAt(i);
                    var property = type?.Kind == JsonTypeInfoKind.Object ? type.Properties.FirstOrDefault(candidate => candidate.Name == name) : null;
                    if (property?.AttributeProvider is MemberInfo member && member.IsDefined(typeof(UnredactedAttribute)))
                    {
                        continue;
                    }

                    var childType = type?.Kind == JsonTypeInfoKind.Dictionary ? TypeInfo(type.ElementType, options) : TypeInfo(property?.PropertyType, options);
                    if (Redact(child, childType, options, redaction) is var redacted && !ReferenceEquals(redacted, child))
                    {
                        properties.SetAt(i, redacted);
                    }
                }

                return properties;
            case JsonArray items:
                var itemType = type?.Kind == JsonTypeInfoKind.Enumerable ? TypeInfo(type.ElementType, options) : null;
                for (var i = 0; i < items.Count; i++)
                {
                    var child = items[i];
                    if (Redact(child, itemType, options, redaction) is var redacted && !ReferenceEquals(redacted, child))
                    {
                        items[i] = redacted;
                    }
                }

                return items;
            case JsonValue value when value.GetValueKind() == JsonValueKind.String:
                var text = value.GetValue<string>();
                var shown = redaction.Redact(text);
                return ReferenceEquals(shown, text) ? value : JsonValue.Create(shown);
            default:
                return node;
        }
    }

    /// <summary>The contract of a declared type; for <see cref="object"/> none, and everything under it is redacted.</summary>
    private static JsonTypeInfo? TypeInfo(Type? type, JsonSerializerOptions options) =>
        type is null || type == typeof(object) ? null : options.GetTypeInfo(type);
}
