using System.Buffers.Binary;
using System.Globalization;
using System.Numerics;
using Loader.Abstractions;
using Loader.Worker.Records;
using ParquetSharp;

namespace Loader.Worker.Parquet;

/// <summary>
/// Turns one stored value (its physical type, as the page reader decodes it) into the property written, by the column's
/// kind: no text round trip but for DECIMAL and TIME, which no store type holds as they are. Nothing is rounded silently:
/// a DECIMAL a double would round, an unsigned 64-bit value past Int64 and a time past a DateTime's range are refused,
/// with the value.
/// </summary>
internal static class ParquetValueConverter
{
    // Julian day of 1970-01-01: INT96 timestamps count days from the Julian epoch.
    private const long UnixEpochJulianDay = 2_440_588;

    /// <summary>Throws when <paramref name="leaf"/>'s kind cannot come from its stored type (the schema read two ways).</summary>
    public static void Check(ParquetLeafType leaf)
    {
        ArgumentNullException.ThrowIfNull(leaf);
        var kind = leaf.Column.Kind;
        var fits = leaf.Physical switch
        {
            PhysicalType.Boolean => kind == ParquetValueKind.Boolean,
            PhysicalType.Int32 => kind is ParquetValueKind.SByte or ParquetValueKind.Byte or ParquetValueKind.Int16 or ParquetValueKind.UInt16
                or ParquetValueKind.Int32 or ParquetValueKind.UInt32 or ParquetValueKind.Date or ParquetValueKind.TimeMillis
                or ParquetValueKind.Decimal or ParquetValueKind.BigDecimal,
            PhysicalType.Int64 => kind is ParquetValueKind.Int64 or ParquetValueKind.UInt64 or ParquetValueKind.Timestamp or ParquetValueKind.TimeMicros
                or ParquetValueKind.TimeNanos or ParquetValueKind.Decimal or ParquetValueKind.BigDecimal,
            PhysicalType.Int96 => kind == ParquetValueKind.Timestamp,
            PhysicalType.Float => kind == ParquetValueKind.Single,
            PhysicalType.Double => kind == ParquetValueKind.Double,
            PhysicalType.ByteArray => kind is ParquetValueKind.String or ParquetValueKind.Binary or ParquetValueKind.Decimal or ParquetValueKind.BigDecimal,
            PhysicalType.FixedLenByteArray => kind is ParquetValueKind.Binary or ParquetValueKind.Guid or ParquetValueKind.Half
                or ParquetValueKind.Decimal or ParquetValueKind.BigDecimal or ParquetValueKind.String,
            _ => false,
        };
        if (!fits || (kind == ParquetValueKind.Timestamp && leaf.Physical == PhysicalType.Int64 && leaf.TimestampUnit is null))
        {
            throw new InvalidDataException($"column '{leaf.Column.Name}' ({leaf.Column.ParquetType}) is stored as {leaf.Physical}, which the loader does not read as {kind}");
        }
    }

    /// <summary>Converts a value of the physical type <typeparamref name="T"/> (the reader's element type); the JIT keeps one branch per type.</summary>
    public static TypedField Convert<T>(T value, ParquetLeafType leaf)
        where T : unmanaged
    {
        if (typeof(T) == typeof(int))
        {
            return FromInt32(As<T, int>(value), leaf);
        }

        if (typeof(T) == typeof(double))
        {
            return Of(EntityProperty.FromDouble(leaf.Column.Property, As<T, double>(value)));
        }

        if (typeof(T) == typeof(long))
        {
            return FromInt64(As<T, long>(value), leaf);
        }

        if (typeof(T) == typeof(bool))
        {
            return Of(EntityProperty.FromBoolean(leaf.Column.Property, As<T, bool>(value)));
        }

        if (typeof(T) == typeof(float))
        {
            return Of(EntityProperty.FromDouble(leaf.Column.Property, As<T, float>(value)));
        }

        if (typeof(T) == typeof(Int96))
        {
            var int96 = As<T, Int96>(value);
            var nanos = (long)((uint)int96.A | ((ulong)(uint)int96.B << 32));
            return Time(leaf, Scaled(int96.C - UnixEpochJulianDay, TimeSpan.TicksPerDay) + (nanos / TimeSpan.NanosecondsPerTick));
        }

        throw new InvalidOperationException($"column '{leaf.Column.Name}' has values of {typeof(T).Name}, which are read as bytes");
    }

    /// <summary>Converts a BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY value.</summary>
    public static TypedField FromBytes(ReadOnlySpan<byte> value, ParquetLeafType leaf)
    {
        ArgumentNullException.ThrowIfNull(leaf);
        var name = leaf.Column.Property;
        return leaf.Column.Kind switch
        {
            ParquetValueKind.String => Of(EntityProperty.FromString(name, System.Text.Encoding.UTF8.GetString(value))),
            ParquetValueKind.Binary => Of(EntityProperty.FromBinary(name, value.ToArray())),
            // UUID: 16 bytes in the order RFC 4122 writes them (big-endian).
            ParquetValueKind.Guid => Of(EntityProperty.FromGuid(name, new Guid(value, bigEndian: true))),
            ParquetValueKind.Half => Of(EntityProperty.FromDouble(name, (double)BinaryPrimitives.ReadHalfLittleEndian(value))),
            ParquetValueKind.Decimal or ParquetValueKind.BigDecimal => Decimal(leaf, new BigInteger(value, isUnsigned: false, isBigEndian: true)),
            _ => throw new InvalidOperationException($"column '{leaf.Column.Name}' has no conversion from bytes for {leaf.Column.Kind}"),
        };
    }

    private static TypedField FromInt32(int value, ParquetLeafType leaf)
    {
        var name = leaf.Column.Property;
        return leaf.Column.Kind switch
        {
            ParquetValueKind.Int32 or ParquetValueKind.SByte or ParquetValueKind.Byte or ParquetValueKind.Int16 or ParquetValueKind.UInt16 => Of(EntityProperty.FromInt32(name, value)),
            ParquetValueKind.UInt32 => Of(EntityProperty.FromInt64(name, (uint)value)),
            ParquetValueKind.Date => Time(leaf, Scaled(value, TimeSpan.TicksPerDay)),
            ParquetValueKind.TimeMillis => Of(EntityProperty.FromString(name, TimeOfDay(value, 1_000, 3))),
            ParquetValueKind.Decimal or ParquetValueKind.BigDecimal => Decimal(leaf, value),
            _ => throw new InvalidOperationException($"column '{leaf.Column.Name}' has no conversion from INT32 for {leaf.Column.Kind}"),
        };
    }

    private static TypedField FromInt64(long value, ParquetLeafType leaf)
    {
        var name = leaf.Column.Property;
        return leaf.Column.Kind switch
        {
            ParquetValueKind.Int64 => Of(EntityProperty.FromInt64(name, value)),
            ParquetValueKind.UInt64 => (ulong)value <= long.MaxValue
                ? Of(EntityProperty.FromInt64(name, value))
                : TypedField.Refused(string.Create(CultureInfo.InvariantCulture, $"column '{leaf.Column.Name}' holds {(ulong)value}, past the largest Int64 ({long.MaxValue})")),
            ParquetValueKind.Timestamp => Time(leaf, leaf.TimestampUnit switch
            {
                TimeUnit.Millis => Scaled(value, TimeSpan.TicksPerMillisecond),
                TimeUnit.Micros => Scaled(value, TimeSpan.TicksPerMicrosecond),
                _ => value / TimeSpan.NanosecondsPerTick,
            }),
            ParquetValueKind.TimeMicros => Of(EntityProperty.FromString(name, TimeOfDay(value, 1_000_000, 6))),
            ParquetValueKind.TimeNanos => Of(EntityProperty.FromString(name, TimeOfDay(value, 1_000_000_000, 9))),
            ParquetValueKind.Decimal or ParquetValueKind.BigDecimal => Decimal(leaf, value),
            _ => throw new InvalidOperationException($"column '{leaf.Column.Name}' has no conversion from INT64 for {leaf.Column.Kind}"),
        };
    }

    /// <summary>
    /// A point in time from the ticks since 1970-01-01: Parquet timestamps are UTC instants, or (isAdjustedToUTC false,
    /// INT96) clock times with no zone, held as given; one outside a DateTime's years (1 to 9999) is refused.
    /// </summary>
    private static TypedField Time(ParquetLeafType leaf, long? ticksSinceEpoch)
    {
        var ticks = DateTime.UnixEpoch.Ticks + ticksSinceEpoch.GetValueOrDefault();
        return ticksSinceEpoch >= -DateTime.UnixEpoch.Ticks && ticksSinceEpoch <= DateTime.MaxValue.Ticks - DateTime.UnixEpoch.Ticks
            ? Of(EntityProperty.FromDateTime(leaf.Column.Property, new DateTime(ticks, DateTimeKind.Utc)))
            : TypedField.Refused($"column '{leaf.Column.Name}' holds a {leaf.Column.ParquetType} outside the years 1 to 9999 a DateTime holds");
    }

    /// <summary><paramref name="value"/> times <paramref name="factor"/>; null past a long (a time no DateTime holds anyway).</summary>
    private static long? Scaled(long value, long factor)
    {
        var high = Math.BigMul(value, factor, out var low);
        return high == (low >> 63) ? low : null;
    }

    /// <summary>A DECIMAL's exact digits from its unscaled value, in the invariant culture.</summary>
    internal static string DecimalText(BigInteger unscaled, int scale)
    {
        var digits = BigInteger.Abs(unscaled).ToString(CultureInfo.InvariantCulture);
        var sign = unscaled.Sign < 0 ? "-" : "";
        if (scale <= 0)
        {
            return sign + digits;
        }

        digits = digits.PadLeft(scale + 1, '0');
        return string.Concat(sign, digits.AsSpan(0, digits.Length - scale), ".", digits.AsSpan(digits.Length - scale));
    }

    private static TypedField Decimal(ParquetLeafType leaf, BigInteger unscaled)
    {
        var text = DecimalText(unscaled, leaf.Scale);
        var column = leaf.Column;
        if (column.Type != ColumnType.Double)
        {
            return Of(EntityProperty.FromString(column.Property, text));
        }

        return ExactDouble.TryParse(text, out var number)
            ? Of(EntityProperty.FromDouble(column.Property, number))
            : TypedField.Refused($"column '{column.Name}' holds {text}, which a Double would round to {number.ToString("R", CultureInfo.InvariantCulture)} (Loader:Parquet:Decimal is Double; String keeps every digit)");
    }

    /// <summary>A TIME value as <c>HH:mm:ss</c> and its fraction to the column's unit, exactly.</summary>
    private static string TimeOfDay(long units, long perSecond, int fractionDigits)
    {
        var seconds = Math.DivRem(units, perSecond, out var fraction);
        return string.Create(CultureInfo.InvariantCulture, $"{seconds / 3600:00}:{seconds / 60 % 60:00}:{seconds % 60:00}.{fraction.ToString(CultureInfo.InvariantCulture).PadLeft(fractionDigits, '0')}");
    }

    private static TypedField Of(EntityProperty property) => TypedField.Of(property);

    // The caller's T is the reader's element type, so this is a no-op the JIT removes for each instantiation.
    private static TTo As<TFrom, TTo>(TFrom value) => System.Runtime.CompilerServices.Unsafe.As<TFrom, TTo>(ref value);
}
