using System.Text.Json;

namespace Loader.CosmosStandIn.Partitioning;

/// <summary>
/// A container's partition key definition as created (<c>partitionKey</c> of the container resource): one path
/// (<c>Hash</c>), or up to three for a hierarchical key (<c>MultiHash</c>, version 2), each possibly nested.
/// </summary>
public sealed record PartitionKeyDefinition(IReadOnlyList<PartitionKeyPath> Paths, string Kind)
{
    /// <summary>A hierarchical partition key has at most three levels.</summary>
    public const int MaxPaths = 3;

    public const string MultiHash = "MultiHash";

    /// <summary>More than one path: the logical partition is named by all of their values together.</summary>
    public bool IsHierarchical => Paths.Count > 1;

    /// <summary>The definition in a container resource's <c>partitionKey</c> property (<c>{"paths":[...],"kind":"Hash"}</c>).</summary>
    public static PartitionKeyDefinition FromJson(JsonElement partitionKey)
    {
        var paths = partitionKey.ValueKind == JsonValueKind.Object && partitionKey.TryGetProperty("paths", out var list) && list.ValueKind == JsonValueKind.Array
            ? list.EnumerateArray().Select(path => PartitionKeyPath.Parse(path.GetString() ?? "")).ToList()
            : [];
        var kind = partitionKey.ValueKind == JsonValueKind.Object && partitionKey.TryGetProperty("kind", out var value) && value.ValueKind == JsonValueKind.String
            ? value.GetString()!
            : "Hash";
        return new PartitionKeyDefinition(paths, kind);
    }

    /// <summary>Why the service would refuse to create a container with this definition, or null.</summary>
    public string? Problem()
    {
        if (Paths.Count == 0 || Paths.Any(path => path.Segments.Count == 0))
        {
            return "The partition key definition needs at least one path, each naming a property, e.g. /pk.";
        }

        if (string.Equals(Kind, MultiHash, StringComparison.OrdinalIgnoreCase))
        {
            return Paths.Count > MaxPaths
                ? $"A hierarchical partition key (MultiHash) has at most {MaxPaths} paths; this one has {Paths.Count}."
                : null;
        }

        return Paths.Count > 1 ? $"A partition key of kind {Kind} has one path; {Paths.Count} need kind MultiHash." : null;
    }

    public override string ToString() => $"[{string.Join(", ", Paths.Select(path => path.Text))}] ({Kind})";
}
