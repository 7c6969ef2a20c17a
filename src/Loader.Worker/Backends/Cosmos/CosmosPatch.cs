using Loader.Abstractions;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>
/// A row's properties as the <c>set</c> operations of a partial document update, valued as <see cref="CosmosItemJson"/>
/// writes them (numbers and booleans as such, dates as ISO 8601 UTC strings, Guids as strings).
/// </summary>
internal static class CosmosPatch
{
    /// <summary>Whether the row can be merged by one patch: at least one property to set and no more than the service allows.</summary>
    public static bool Fits(LoadEntity entity) => entity.Properties.Count is > 0 and <= CosmosLimits.MaxPatchOperations;

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
                _ => throw new ArgumentOutOfRangeException(nameof(entity), property.Type, "unknown column type"),
            };
        }

        return operations;
    }

    /// <summary>A top-level property as a JSON Pointer (RFC 6901): <c>~</c> and <c>/</c> in the name escaped.</summary>
    private static string Path(string name) => "/" + name.Replace("~", "~0", StringComparison.Ordinal).Replace("/", "~1", StringComparison.Ordinal);
}
