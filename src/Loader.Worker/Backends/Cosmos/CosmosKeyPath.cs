namespace Loader.Worker.Backends.Cosmos;

/// <summary>
/// One path of a container's partition key, such as <c>/pk</c> or the nested <c>/customer/id</c>: the property names to
/// follow from the item's root.
/// </summary>
internal sealed record CosmosKeyPath(string Text, IReadOnlyList<string> Segments)
{
    /// <summary>The path of <paramref name="text"/>, or null when it is not <c>/</c> and a property name, with more <c>/name</c> for a nested one.</summary>
    public static CosmosKeyPath? TryParse(string text)
    {
        var trimmed = text.Trim();
        if (trimmed.Length < 2 || trimmed[0] != '/')
        {
            return null;
        }

        var segments = trimmed[1..].Split('/');
        return segments.Any(segment => segment.Length == 0 || segment.Trim().Length != segment.Length || segment.Any(char.IsControl))
            ? null
            : new CosmosKeyPath(trimmed, segments);
    }

    /// <summary>The paths of a comma-separated list (<c>/tenantId,/userId</c>), leaving out those that do not parse (the validator names them).</summary>
    public static IReadOnlyList<CosmosKeyPath> ParseList(string text) =>
        [.. text.Split(',').Select(TryParse).OfType<CosmosKeyPath>()];

    /// <summary>Whether this path is the other or holds it (<c>/a</c> and <c>/a/b</c>): an item cannot have a value at both.</summary>
    public bool Overlaps(CosmosKeyPath other)
    {
        var common = Math.Min(Segments.Count, other.Segments.Count);
        for (var i = 0; i < common; i++)
        {
            if (!string.Equals(Segments[i], other.Segments[i], StringComparison.Ordinal))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>The column name that stands for this path in a flat header: its segments joined by the path separator (<c>customer.id</c>).</summary>
    public string ColumnName(string separator) => string.Join(separator, Segments);

    public override string ToString() => Text;
}
