using System.Globalization;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>
/// The <c>ttl</c> written on each item: the same number of seconds on every item (<c>Loader:Cosmos:TimeToLive</c>)
/// or each row's own from a column (<c>Loader:Cosmos:TimeToLiveColumn</c>), whose value is written as <c>ttl</c> in
/// place of the column. A row whose cell is empty gets none, so the container's default applies.
/// </summary>
internal sealed class CosmosItemTimeToLive
{
    /// <summary>The JSON property the service reads an item's time to live from.</summary>
    public const string JsonName = "ttl";

    /// <summary>The most the property adds to an item's JSON: <c>,"ttl":-2147483648</c>.</summary>
    public const int MaxJsonBytes = 20;

    private CosmosItemTimeToLive(int? seconds, string? column) => (Seconds, Column) = (seconds, column);

    /// <summary>The fixed seconds, or null when they come from <see cref="Column"/>.</summary>
    public int? Seconds { get; }

    /// <summary>The column each row's seconds come from, or null when they are fixed.</summary>
    public string? Column { get; }

    /// <summary>What the settings ask for; null when they set no time to live.</summary>
    public static CosmosItemTimeToLive? Of(CosmosOptions options) =>
        options.TimeToLive is { } seconds ? new(seconds, null)
        : string.IsNullOrWhiteSpace(options.TimeToLiveColumn) ? null
        : new(null, options.TimeToLiveColumn);

    private static readonly PropertyName s_property = Abstractions.PropertyName.Of(JsonName);

    /// <summary>The row with its ttl as a property named <c>ttl</c>: the fixed seconds added, or the column's cell in the column's place.</summary>
    public LoadEntity Apply(LoadEntity entity)
    {
        var properties = new List<EntityProperty>(entity.Properties.Count + 1);
        foreach (var property in entity.PropertySpan)
        {
            // Inspect refused a row whose cell is no ttl, so every cell that reaches here reads.
            properties.Add(IsColumn(property) && TryRead(property, out var seconds) ? EntityProperty.FromInt32(s_property, seconds) : property);
        }

        if (Seconds is { } fixedSeconds)
        {
            properties.Add(EntityProperty.FromInt32(s_property, fixedSeconds));
        }

        return entity with { Properties = properties };
    }

    /// <summary>Whether the service takes <paramref name="seconds"/> as an item's ttl: -1 (never expires) or positive.</summary>
    public static bool IsValid(long seconds) => seconds is -1 or (> 0 and <= int.MaxValue);

    /// <summary>Whether <paramref name="property"/> is the column the seconds come from.</summary>
    public bool IsColumn(in EntityProperty property) => Column is not null && string.Equals(property.Name, Column, StringComparison.Ordinal);

    /// <summary>The seconds a cell of the column holds, when it holds a ttl the service takes.</summary>
    public static bool TryRead(in EntityProperty property, out int seconds)
    {
        long value;
        switch (property.Type)
        {
            case ColumnType.Int32:
                value = property.AsInt32();
                break;
            case ColumnType.Int64:
                value = property.AsInt64();
                break;
            case ColumnType.String when long.TryParse(property.AsString(), NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var parsed):
                value = parsed;
                break;
            default:
                seconds = 0;
                return false;
        }

        seconds = (int)Math.Clamp(value, int.MinValue, int.MaxValue);
        return IsValid(value);
    }

    /// <summary>Why a cell of the column cannot be a ttl, naming the column.</summary>
    public static string Problem(in EntityProperty property)
    {
        var text = Convert.ToString(property.Value, CultureInfo.InvariantCulture) ?? "";
        text = text.Length > 40 ? text[..40] + "…" : text;
        return $"column '{property.Name}' (Loader:Cosmos:TimeToLiveColumn): '{text}' is not a time to live: "
            + "give -1 (never expires) or a whole number of seconds from 1 to 2147483647";
    }
}
