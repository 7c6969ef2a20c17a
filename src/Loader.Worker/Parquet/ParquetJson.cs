using System.Globalization;
using System.Text.Json;
using Loader.Abstractions;

namespace Loader.Worker.Parquet;

/// <summary>Writes a list element as a JSON value: numbers and booleans as they are, dates as ISO 8601 text, binary as base64.</summary>
internal static class ParquetJson
{
    public static void Write(Utf8JsonWriter writer, EntityProperty element)
    {
        switch (element.Type)
        {
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
                throw new InvalidOperationException($"a list element of {element.Type} has no JSON form");
        }
    }
}
