using System.Buffers.Text;
using System.Text;
using Loader.Abstractions;
using Loader.Worker.Records;

namespace Loader.Worker.Mapping;

/// <summary>The property a field its format types becomes when <c>Loader:Columns</c> gives it no type of its own.</summary>
internal static class FieldTypes
{
    /// <summary>
    /// A JSON number: an Int64 when it is integral and in range (written without fraction or exponent), a Double otherwise;
    /// <c>true</c>/<c>false</c> a Boolean; an object or array JSON text, nested where the store keeps documents. False
    /// when a number does not fit a Double (beyond ±1.8e308).
    /// </summary>
    public static bool TryNatural(PropertyName name, FieldKind kind, ReadOnlySpan<byte> utf8, out EntityProperty property)
    {
        switch (kind)
        {
            case FieldKind.Number when Utf8Parser.TryParse(utf8, out long whole, out var used) && used == utf8.Length:
                property = EntityProperty.FromInt64(name, whole);
                return true;
            case FieldKind.Number when ExactDouble.TryParse(utf8, out var number):
                property = EntityProperty.FromDouble(name, number);
                return true;
            case FieldKind.Boolean:
                property = EntityProperty.FromBoolean(name, utf8.SequenceEqual("true"u8));
                return true;
            case FieldKind.Json:
                property = EntityProperty.FromJson(name, Encoding.UTF8.GetString(utf8));
                return true;
            case FieldKind.Text:
                property = EntityProperty.FromString(name, Encoding.UTF8.GetString(utf8));
                return true;
            default:
                property = default;
                return false;
        }
    }
}
