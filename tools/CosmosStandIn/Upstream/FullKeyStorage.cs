using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Nodes;
using Loader.CosmosStandIn.Partitioning;

namespace Loader.CosmosStandIn.Upstream;

/// <summary>
/// How a container with a hierarchical partition key lives on cosmosdb-server, which keys items by the value at the
/// first path and the id alone (items <c>acme/u1/1</c> and <c>acme/u2/1</c> would be one). The container is created
/// there partitioned on a property of the stand-in's own, <see cref="KeyProperty"/>, which every stored item
/// carries with its whole key (the canonical <see cref="PartitionKeyValue"/>); the definition the client asked for
/// is kept beside it in <see cref="DefinitionProperty"/> and given back in its place on every container answer, and
/// <see cref="KeyProperty"/> is taken out of every item answer. The client never sees either.
/// </summary>
public static class FullKeyStorage
{
    /// <summary>The stored item's whole partition key.</summary>
    public const string KeyProperty = "_standInKey";

    /// <summary>The container's partition key definition as the client created it.</summary>
    public const string DefinitionProperty = "_standInPartitionKey";

    // Non-ASCII text stays as it came rather than \u-escaped: these are the client's own items.
    private static readonly JsonSerializerOptions s_json = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    /// <summary>How rewritten answers are written: non-ASCII text as it came rather than \u-escaped.</summary>
    public static JsonSerializerOptions JsonOptions => s_json;
    private static readonly byte[] s_keyPropertyBytes = Encoding.UTF8.GetBytes("\"" + KeyProperty + "\"");
    private static readonly byte[] s_definitionPropertyBytes = Encoding.UTF8.GetBytes("\"" + DefinitionProperty + "\"");

    /// <summary>The partition key an item stored by its whole key goes under on cosmosdb-server: <c>["&lt;canonical key&gt;"]</c>.</summary>
    public static string UpstreamKey(PartitionKeyValue key) => JsonSerializer.Serialize(new[] { key.Canonical });

    /// <summary>
    /// A container resource as the client sent it to be created or replaced, made ready for cosmosdb-server when its
    /// key is hierarchical; null when it is not (it then goes as it is).
    /// </summary>
    public static byte[]? ContainerForUpstream(JsonObject container)
    {
        ArgumentNullException.ThrowIfNull(container);
        if (container["partitionKey"] is not JsonObject definition
            || !PartitionKeyDefinition.FromJson(JsonSerializer.SerializeToElement(definition)).IsHierarchical)
        {
            return null;
        }

        var stored = (JsonObject)container.DeepClone();
        stored[DefinitionProperty] = definition.DeepClone();
        stored["partitionKey"] = new JsonObject { ["paths"] = new JsonArray("/" + KeyProperty), ["kind"] = "Hash" };
        return JsonSerializer.SerializeToUtf8Bytes(stored, s_json);
    }

    /// <summary>
    /// A cosmosdb-server answer about containers (one, or a feed of them) with each container's own definition given
    /// back; the answer unchanged when none is stored by its whole key.
    /// </summary>
    public static ReadOnlyMemory<byte> ContainersForClient(ReadOnlyMemory<byte> answer)
    {
        if (answer.Span.IndexOf(s_definitionPropertyBytes) < 0 || JsonNode.Parse(answer.Span) is not { } root)
        {
            return answer;
        }

        foreach (var container in root is JsonObject { } single && single["DocumentCollections"] is JsonArray feed ? feed.OfType<JsonObject>() : [root.AsObject()])
        {
            if (container.Remove(DefinitionProperty, out var definition))
            {
                container["partitionKey"] = definition;
            }
        }

        return JsonSerializer.SerializeToUtf8Bytes(root, s_json);
    }

    /// <summary>An item's JSON with its whole key added, for cosmosdb-server.</summary>
    public static ReadOnlyMemory<byte> WithKey(ReadOnlyMemory<byte> item, PartitionKeyValue key)
    {
        var node = JsonNode.Parse(item.Span)?.AsObject() ?? throw new JsonException("an item is a JSON object");
        node[KeyProperty] = key.Canonical;
        return JsonSerializer.SerializeToUtf8Bytes(node, s_json);
    }

    /// <summary>An item's JSON as the client wrote it: without the stored key; unchanged when it has none.</summary>
    public static ReadOnlyMemory<byte> WithoutKey(ReadOnlyMemory<byte> item)
    {
        if (item.Span.IndexOf(s_keyPropertyBytes) < 0 || JsonNode.Parse(item.Span) is not JsonObject node)
        {
            return item;
        }

        node.Remove(KeyProperty);
        return JsonSerializer.SerializeToUtf8Bytes(node, s_json);
    }

    /// <summary>Takes the stored key out of an item in a query's or feed's answer, when it is a whole item.</summary>
    public static void RemoveKey(JsonObject item) => item.Remove(KeyProperty);
}
