using System.Globalization;
using System.Text.Json;
using Loader.Abstractions;

namespace Loader.Worker.Records;

/// <summary>
/// Writes a typed value as a JSON value: numbers and booleans as they are, dates as ISO 8601 text, binary as base64, JSON
/// (a nested object or list) as it is. For rows of a typed input held as JSON: a Parquet row of a rejects file, a list's elements.
/// </summary>
internal static class PropertyJson
{
    public static void Write(Utf8JsonWriter writer, EntityProperty element)
    {
        switch (element.Type)
        {
            case ColumnType.Json:
                writer.WriteRawValue(element.AsJson(), skipInputValidation: true);
                break;
            case ColumnType.String:
                writer.WriteStringValue(element.AsString());
                break;
            case ColumnType.Int32:
                writer.WriteNumberValue(element.AsInt32());
                break;
            case ColumnType.Int64:
                writer.WriteNumberValue(element.AsInt64());
                break;
            case ColumnType.Double when double.IsFinite(element.AsDouble()):
                writer.WriteNumberValue(element.AsDouble());
                break;
            case ColumnType.Double:
                // JSON has no NaN or infinity: their names as text, as System.Text.Json's named literals write them.
                writer.WriteStringValue(element.AsDouble().ToString(CultureInfo.InvariantCulture));
                break;
            case ColumnType.Boolean:
                writer.WriteBooleanValue(element.AsBoolean());
                break;
            case ColumnType.DateTime:
                writer.WriteStringValue(element.AsDateTime());
                break;
            case ColumnType.Guid:
                writer.WriteStringValue(element.AsGuid());
                break;
            case ColumnType.Binary:
                writer.WriteBase64StringValue(element.AsBinary().Span);
                break;
            default:
                throw new InvalidOperationException($"a value of {element.Type} has no JSON form");
        }
    }
}
