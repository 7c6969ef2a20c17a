using System.Globalization;
using Loader.Abstractions;

namespace Loader.Worker.Records;

/// <summary>
/// A typed value as text, the same on every machine: what a key template renders from a typed field (Parquet), and what
/// a typed field a setting asks to be a String holds. Numbers in the invariant culture (doubles shortest round trip), dates
/// as ISO 8601 UTC with seven fraction digits, Guids with hyphens, booleans <c>true</c>/<c>false</c>, bytes as base64.
/// </summary>
internal static class TypedText
{
    public const string DateTimeFormat = "yyyy-MM-dd'T'HH:mm:ss.fffffff'Z'";

    public static string Of(EntityProperty value) => value.Type switch
    {
        ColumnType.String => value.AsString(),
        ColumnType.Int32 => value.AsInt32().ToString(CultureInfo.InvariantCulture),
        ColumnType.Int64 => value.AsInt64().ToString(CultureInfo.InvariantCulture),
        ColumnType.Double => value.AsDouble().ToString("R", CultureInfo.InvariantCulture),
        ColumnType.Boolean => value.AsBoolean() ? "true" : "false",
        ColumnType.DateTime => value.AsDateTime().ToString(DateTimeFormat, CultureInfo.InvariantCulture),
        ColumnType.Guid => value.AsGuid().ToString("D"),
        ColumnType.Json => value.AsJson(),
        ColumnType.Binary => Convert.ToBase64String(value.AsBinary().Span),
        _ => throw new InvalidOperationException($"no text for {value.Type}"),
    };
}
