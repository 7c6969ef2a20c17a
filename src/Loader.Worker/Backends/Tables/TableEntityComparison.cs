using System.Globalization;
using System.Text.Json;
using Azure.Data.Tables;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Tables;

/// <summary>
/// Whether a stored entity is a row as <see cref="TableEntities"/> writes it: every property of the row with the same
/// EDM type and value (the SDK reads Int32 as int, Int64 as long, DateTime as DateTimeOffset, Guid and Double by their
/// types), and no property besides them but the keys and the service's own (Timestamp, the ETag). A resumed Insert's
/// conflicts and <c>verify</c> both compare by these rules.
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

        var (differing, _) = Differences(row, stored, othersAllowed: false);
        return differing.Count == 0 ? StoredState.Equal : StoredState.Differs(differing);
    }

    /// <summary>The properties in which <paramref name="stored"/> differs from <paramref name="row"/>, the row's first, and the first of them with both values.</summary>
    /// <param name="row">The row as the load maps it.</param>
    /// <param name="stored">The entity as the service holds it.</param>
    /// <param name="othersAllowed">Stored properties the row does not name are no difference (Merge).</param>
    public static (List<string> Names, PropertyDifference? First) Differences(LoadEntity row, TableEntity stored, bool othersAllowed)
    {
        var differing = new List<string>();
        PropertyDifference? first = null;
        var names = new HashSet<string>(StringComparer.Ordinal);
        foreach (var property in row.PropertySpan)
        {
            names.Add(property.Name);
            var found = stored.TryGetValue(property.Name, out var value);
            if (!found || !Same(property, value))
            {
                differing.Add(property.Name);
                first ??= new PropertyDifference(property.Name, Text(property), found ? Text(value) : null);
            }
        }

        if (othersAllowed)
        {
            return (differing, first);
        }

        foreach (var (name, value) in stored)
        {
            if (!names.Contains(name) && !s_serviceProperties.Contains(name) && !name.EndsWith("@odata.type", StringComparison.Ordinal))
            {
                differing.Add(name);
                first ??= new PropertyDifference(name, null, Text(value));
            }
        }

        return (differing, first);
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
        ColumnType.Binary => stored is byte[] bytes && property.AsBinary().Span.SequenceEqual(bytes),
        // Table Storage keeps a JSON value (a Parquet list) as its text.
        ColumnType.Json => stored is string json && json == property.AsJson(),
        _ => false,
    };

    /// <summary>A double, or one that is not finite, which is written as its name annotated Edm.Double.</summary>
    private static bool SameDouble(double expected, object? stored) => stored switch
    {
        double value => value.Equals(expected),
        string text => double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) && value.Equals(expected),
        _ => false,
    };

    private static string Text(EntityProperty property) => property.Type switch
    {
        ColumnType.DateTime => Text(property.AsDateTime()),
        _ => Text(property.Value),
    };

    /// <summary>A value as a person compares it: strings (and what the service keeps as one: dates, Guids) quoted, so <c>"5"</c> is not <c>5</c>.</summary>
    private static string Text(object? value) => value switch
    {
        null => "null",
        string text => JsonSerializer.Serialize(text, JsonText.DisplayOptions),
        bool flag => flag ? "true" : "false",
        DateTimeOffset at => Text(at.UtcDateTime),
        DateTime at => "\"" + JsonText.UtcDateTime(at.ToUniversalTime()) + "\"",
        Guid guid => "\"" + guid.ToString("D") + "\"",
        double number => number.ToString("R", CultureInfo.InvariantCulture),
        IFormattable number => number.ToString(null, CultureInfo.InvariantCulture),
        _ => value.ToString() ?? "",
    };
}
