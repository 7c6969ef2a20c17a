using System.Globalization;
using Loader.Abstractions;

namespace Loader.Worker.Mapping;

/// <summary>Converts a cell's text to its configured column type, in the configured culture.</summary>
public sealed class ColumnConverter(CultureInfo culture)
{
    /// <summary>Converts <paramref name="text"/>; false when it is not a valid value of the type.</summary>
    public bool TryConvert(ColumnType type, string text, out object value)
    {
        switch (type)
        {
            case ColumnType.String:
                value = text;
                return true;
            case ColumnType.Int32 when int.TryParse(text, NumberStyles.Integer, culture, out var int32):
                value = int32;
                return true;
            case ColumnType.Int64 when long.TryParse(text, NumberStyles.Integer, culture, out var int64):
                value = int64;
                return true;
            case ColumnType.Double when double.TryParse(text, NumberStyles.Float | NumberStyles.AllowThousands, culture, out var number):
                value = number;
                return true;
            case ColumnType.Boolean when TryParseBoolean(text, out var flag):
                value = flag;
                return true;
            case ColumnType.DateTime when DateTime.TryParse(text, culture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal, out var dateTime):
                value = DateTime.SpecifyKind(dateTime, DateTimeKind.Utc);
                return true;
            case ColumnType.Guid when Guid.TryParse(text, out var guid):
                value = guid;
                return true;
            default:
                value = text;
                return false;
        }
    }

    private static bool TryParseBoolean(string text, out bool value)
    {
        var trimmed = text.AsSpan().Trim();
        if (bool.TryParse(trimmed, out value))
        {
            return true;
        }

        if (trimmed is "1")
        {
            value = true;
            return true;
        }

        if (trimmed is "0")
        {
            value = false;
            return true;
        }

        return false;
    }
}
