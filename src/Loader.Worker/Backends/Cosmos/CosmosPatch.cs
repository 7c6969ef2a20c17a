using Loader.Abstractions;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>
/// A row's properties as the <c>set</c> operations of a partial document update, valued as <see cref="CosmosItemJson"/>
/// writes them (numbers and booleans as such, dates as ISO 8601 UTC strings, Guids as strings).
/// </summary>
/// <param name="pathSeparator">Text in a column name that nests it (<c>Loader:Cosmos:PathSeparator</c>).</param>
/// <param name="writesTimeToLive">
/// Whether items carry a <c>ttl</c> the settings give: those rows are merged by read-then-replace, which writes the item
/// as <see cref="CosmosItemJson"/> does, ttl included, rather than by a patch that would leave the stored ttl.
/// </param>
internal sealed class CosmosPatch(string pathSeparator, bool writesTimeToLive = false)
{
    /// <summary>
    /// Whether the row can be merged by one patch: at least one property to set and no more than the service allows,
    /// all of them flat and typed. A nested name is left to read-then-replace, since a <c>set</c> under a parent the item
    /// lacks is refused; a Json cell too, since the SDK would serialize it again as a string.
    /// </summary>
    public bool Fits(LoadEntity entity)
    {
        if (writesTimeToLive || entity.Properties.Count is 0 or > CosmosLimits.MaxPatchOperations)
        {
            return false;
        }

        foreach (var property in entity.PropertySpan)
        {
            if (property.Type == ColumnType.Json || (pathSeparator.Length > 0 && property.Name.Contains(pathSeparator, StringComparison.Ordinal)))
            {
                return false;
            }
        }

        return true;
    }

    public static IReadOnlyList<PatchOperation> SetOperations(LoadEntity entity)
    {
        var operations = new PatchOperation[entity.Properties.Count];
        for (var i = 0; i < operations.Length; i++)
        {
            var property = entity.Properties[i];
            var path = Path(property.Name);
            operations[i] = property.Type switch
            {
                ColumnType.String => PatchOperation.Set(path, property.AsString()),
                ColumnType.Int32 => PatchOperation.Set(path, property.AsInt32()),
                ColumnType.Int64 => PatchOperation.Set(path, property.AsInt64()),
                ColumnType.Double => PatchOperation.Set(path, property.AsDouble()),
                ColumnType.Boolean => PatchOperation.Set(path, property.AsBoolean()),
                ColumnType.DateTime => PatchOperation.Set(path, JsonText.UtcDateTime(property.AsDateTime())),
                ColumnType.Guid => PatchOperation.Set(path, property.AsGuid().ToString("D")),
                ColumnType.Binary => PatchOperation.Set(path, Convert.ToBase64String(property.AsBinary().Span)),
                _ => throw new ArgumentOutOfRangeException(nameof(entity), property.Type, "unknown column type"),
            };
        }

        return operations;
    }

    /// <summary>A top-level property as a JSON Pointer (RFC 6901): <c>~</c> and <c>/</c> in the name escaped.</summary>
    private static string Path(string name) => "/" + name.Replace("~", "~0", StringComparison.Ordinal).Replace("/", "~1", StringComparison.Ordinal);
}
