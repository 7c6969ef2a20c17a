using System.Globalization;
using Azure.Data.Tables;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Tables;

/// <summary>
/// Whether a stored entity is a row as <see cref="TableEntities"/> writes it: every property of the row with the same
/// EDM type and value (the SDK reads Int32 as int, Int64 as long, DateTime as DateTimeOffset, Guid and Double by their
/// types), and no property besides them but the keys and the service's own (Timestamp, the ETag).
/// </summary>
internal static class TableEntityComparison
{
    private static readonly HashSet<string> s_serviceProperties = new(StringComparer.Ordinal) { "PartitionKey", "RowKey", "Timestamp", "odata.etag" };

    public static StoredState Compare(LoadEntity row, TableEntity? stored)
    {
        if (stored is null)
        {
            return StoredState.Missing;
        }

        var differing = new List<string>();
        var names = new HashSet<string>(StringComparer.Ordinal);
        foreach (var property in row.Properties)
        {
            names.Add(property.Name);
            if (!stored.TryGetValue(property.Name, out var value) || !Same(property, value))
            {
                differing.Add(property.Name);
            }
        }

        foreach (var name in stored.Keys)
        {
            if (!names.Contains(name) && !s_serviceProperties.Contains(name) && !name.EndsWith("@odata.type", StringComparison.Ordinal))
            {
                differing.Add(name);
            }
        }

        return differing.Count == 0 ? StoredState.Equal : StoredState.Differs(differing);
    }

    private static bool Same(EntityProperty property, object? stored) => property.Type switch
    {
        ColumnType.String => stored is string text && text == property.AsString(),
        ColumnType.Int32 => stored is int number && number == property.AsInt32(),
        ColumnType.Int64 => stored is long number && number == property.AsInt64(),
        ColumnType.Double => SameDouble(property.AsDouble(), stored),
        ColumnType.Boolean => stored is bool flag && flag == property.AsBoolean(),
        ColumnType.DateTime => stored switch
        {
            DateTimeOffset at => at.UtcTicks == property.AsDateTime().Ticks,
            DateTime at => at.ToUniversalTime().Ticks == property.AsDateTime().Ticks,
            _ => false,
        },
        ColumnType.Guid => stored is Guid guid && guid == property.AsGuid(),
        _ => false,
    };

    /// <summary>A double, or one that is not finite, which is written as its name annotated Edm.Double.</summary>
    private static bool SameDouble(double expected, object? stored) => stored switch
    {
        double value => value.Equals(expected),
        string text => double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) && value.Equals(expected),
        _ => false,
    };
}
