using System.Globalization;
using System.Numerics;
using Loader.Abstractions;
using Parquet.Data;

using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>
/// Turns one value as the Parquet reader hands it out into the property written, by the column's kind: no text round
/// trip but for DECIMAL and TIME, which no store type holds as they are. Nothing is rounded silently: a DECIMAL a
/// double would round and an unsigned 64-bit value past Int64 are refused, with the value.
/// </summary>
internal static class ParquetValueConverter
{
    /// <summary>Converts <paramref name="value"/> of <paramref name="column"/> to the column's type.</summary>
    public static TypedField Convert<T>(T value, ParquetColumn column)
    {
        var name = column.Property;
        return column.Kind switch
        {
            ParquetValueKind.Boolean => Of(EntityProperty.FromBoolean(name, As<T, bool>(value))),
            ParquetValueKind.SByte => Of(EntityProperty.FromInt32(name, As<T, sbyte>(value))),
            ParquetValueKind.Byte => Of(EntityProperty.FromInt32(name, As<T, byte>(value))),
            ParquetValueKind.Int16 => Of(EntityProperty.FromInt32(name, As<T, short>(value))),
            ParquetValueKind.UInt16 => Of(EntityProperty.FromInt32(name, As<T, ushort>(value))),
            ParquetValueKind.Int32 => Of(EntityProperty.FromInt32(name, As<T, int>(value))),
            ParquetValueKind.UInt32 => Of(EntityProperty.FromInt64(name, As<T, uint>(value))),
            ParquetValueKind.Int64 => Of(EntityProperty.FromInt64(name, As<T, long>(value))),
            ParquetValueKind.UInt64 => UInt64(name, As<T, ulong>(value)),
            ParquetValueKind.Half => Of(EntityProperty.FromDouble(name, (double)As<T, Half>(value))),
            ParquetValueKind.Single => Of(EntityProperty.FromDouble(name, As<T, float>(value))),
            ParquetValueKind.Double => Of(EntityProperty.FromDouble(name, As<T, double>(value))),
            ParquetValueKind.Decimal => Decimal(column, As<T, decimal>(value).ToString(CultureInfo.InvariantCulture)),
            ParquetValueKind.BigDecimal => Decimal(column, Text(As<T, BigDecimal>(value))),
            ParquetValueKind.String => Of(EntityProperty.FromString(name, new string(As<T, ReadOnlyMemory<char>>(value).Span))),
            ParquetValueKind.Binary => Of(EntityProperty.FromBinary(name, As<T, ReadOnlyMemory<byte>>(value).ToArray())),
            // Parquet timestamps are UTC instants, or (isAdjustedToUTC false, INT96) clock times with no zone: held as given.
            ParquetValueKind.Timestamp => Of(EntityProperty.FromDateTime(name, DateTime.SpecifyKind(As<T, DateTime>(value), DateTimeKind.Utc))),
            ParquetValueKind.Date => Of(EntityProperty.FromDateTime(name, As<T, DateOnly>(value).ToDateTime(TimeOnly.MinValue, DateTimeKind.Utc))),
            ParquetValueKind.Guid => Of(EntityProperty.FromGuid(name, As<T, Guid>(value))),
            ParquetValueKind.TimeMillis => Of(EntityProperty.FromString(name, TimeOfDay(As<T, int>(value), 1_000, 3))),
            ParquetValueKind.TimeMicros => Of(EntityProperty.FromString(name, TimeOfDay(As<T, long>(value), 1_000_000, 6))),
            ParquetValueKind.TimeNanos => Of(EntityProperty.FromString(name, TimeOfDay(As<T, long>(value), 1_000_000_000, 9))),
            _ => throw new InvalidOperationException($"column '{column.Name}' has no conversion for {column.Kind}"),
        };
    }

    /// <summary>A DECIMAL's exact digits, in the invariant culture (the Parquet library's own text follows the current one).</summary>
    internal static string Text(BigDecimal value)
    {
        var digits = BigInteger.Abs(value.UnscaledValue).ToString(CultureInfo.InvariantCulture);
        var sign = value.UnscaledValue.Sign < 0 ? "-" : "";
        if (value.Scale == 0)
        {
            return sign + digits;
        }

        digits = digits.PadLeft(value.Scale + 1, '0');
        return string.Concat(sign, digits.AsSpan(0, digits.Length - value.Scale), ".", digits.AsSpan(digits.Length - value.Scale));
    }

    private static TypedField Decimal(ParquetColumn column, string text)
    {
        if (column.Type != ColumnType.Double)
        {
            return Of(EntityProperty.FromString(column.Property, text));
        }

        return ExactDouble.TryParse(text, out var number)
            ? Of(EntityProperty.FromDouble(column.Property, number))
            : TypedField.Refused($"column '{column.Name}' holds {text}, which a Double would round to {number.ToString("R", CultureInfo.InvariantCulture)} (Loader:Parquet:Decimal is Double; String keeps every digit)");
    }

    private static TypedField UInt64(PropertyName name, ulong value) => value <= long.MaxValue
        ? Of(EntityProperty.FromInt64(name, (long)value))
        : TypedField.Refused(string.Create(CultureInfo.InvariantCulture, $"column '{name.Text}' holds {value}, past the largest Int64 ({long.MaxValue})"));

    /// <summary>A TIME value as <c>HH:mm:ss</c> and its fraction to the column's unit, exactly.</summary>
    private static string TimeOfDay(long units, long perSecond, int fractionDigits)
    {
        var seconds = Math.DivRem(units, perSecond, out var fraction);
        return string.Create(CultureInfo.InvariantCulture, $"{seconds / 3600:00}:{seconds / 60 % 60:00}:{seconds % 60:00}.{fraction.ToString(CultureInfo.InvariantCulture).PadLeft(fractionDigits, '0')}");
    }

    private static TypedField Of(EntityProperty property) => TypedField.Of(property);

    // The caller's T is the column's CLR type, so this is a no-op the JIT removes for each instantiation.
    private static TTo As<TFrom, TTo>(TFrom value) => System.Runtime.CompilerServices.Unsafe.As<TFrom, TTo>(ref value);
}
