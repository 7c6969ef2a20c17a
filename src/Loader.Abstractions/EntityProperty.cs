using System.Globalization;

namespace Loader.Abstractions;

/// <summary>
/// One typed property of an entity, in 24 bytes: numbers, booleans and dates are held inline, not boxed. A load
/// keeps tens of thousands of rows waiting in partial batches, and every byte and object per row costs
/// garbage-collector time. Create with <see cref="FromString"/>, <see cref="FromInt32"/>, ...; read with the
/// matching <c>As*</c> method.
/// </summary>
public readonly struct EntityProperty : IEquatable<EntityProperty>
{
    private static readonly TypeTag[] s_tags = [.. Enum.GetValues<ColumnType>().Select(type => new TypeTag(type))];

    private readonly long _bits;

    // The string of a String, the boxed Guid of a Guid, or for inline values a tag naming their type.
    private readonly object _reference;

    private EntityProperty(string name, long bits, object reference)
    {
        Name = name;
        _bits = bits;
        _reference = reference;
    }

    public string Name { get; }

    public ColumnType Type => _reference switch
    {
        string => ColumnType.String,
        TypeTag tag => tag.Type,
        Guid => ColumnType.Guid,
        _ => throw new InvalidOperationException("an uninitialized property has no type"),
    };

    /// <summary>The value as an object (boxed): for diagnostics and tests, not for hot paths.</summary>
    public object Value => Type switch
    {
        ColumnType.String => AsString(),
        ColumnType.Int32 => AsInt32(),
        ColumnType.Int64 => AsInt64(),
        ColumnType.Double => AsDouble(),
        ColumnType.Boolean => AsBoolean(),
        ColumnType.DateTime => AsDateTime(),
        ColumnType.Guid => AsGuid(),
        _ => throw new InvalidOperationException($"unknown column type {Type}"),
    };

    public static EntityProperty FromString(string name, string value) => new(name, 0, value ?? throw new ArgumentNullException(nameof(value)));

    public static EntityProperty FromInt32(string name, int value) => new(name, value, s_tags[(int)ColumnType.Int32]);

    public static EntityProperty FromInt64(string name, long value) => new(name, value, s_tags[(int)ColumnType.Int64]);

    public static EntityProperty FromDouble(string name, double value) => new(name, BitConverter.DoubleToInt64Bits(value), s_tags[(int)ColumnType.Double]);

    public static EntityProperty FromBoolean(string name, bool value) => new(name, value ? 1 : 0, s_tags[(int)ColumnType.Boolean]);

    /// <summary>A point in time, held as UTC.</summary>
    public static EntityProperty FromDateTime(string name, DateTime value) =>
        new(name, (value.Kind == DateTimeKind.Local ? value.ToUniversalTime() : value).Ticks, s_tags[(int)ColumnType.DateTime]);

    /// <summary>Guids are rare in loads; the one type that is boxed.</summary>
    public static EntityProperty FromGuid(string name, Guid value) => new(name, 0, value);

    /// <summary>Creates a property from a boxed value of the type's CLR type (for tests and tools).</summary>
    public static EntityProperty From(string name, ColumnType type, object value) => type switch
    {
        ColumnType.String => FromString(name, (string)value),
        ColumnType.Int32 => FromInt32(name, (int)value),
        ColumnType.Int64 => FromInt64(name, (long)value),
        ColumnType.Double => FromDouble(name, (double)value),
        ColumnType.Boolean => FromBoolean(name, (bool)value),
        ColumnType.DateTime => FromDateTime(name, (DateTime)value),
        ColumnType.Guid => FromGuid(name, (Guid)value),
        _ => throw new ArgumentOutOfRangeException(nameof(type), type, "unknown column type"),
    };

    public string AsString()
    {
        Expect(ColumnType.String);
        return (string)_reference!;
    }

    public int AsInt32()
    {
        Expect(ColumnType.Int32);
        return (int)_bits;
    }

    public long AsInt64()
    {
        Expect(ColumnType.Int64);
        return _bits;
    }

    public double AsDouble()
    {
        Expect(ColumnType.Double);
        return BitConverter.Int64BitsToDouble(_bits);
    }

    public bool AsBoolean()
    {
        Expect(ColumnType.Boolean);
        return _bits != 0;
    }

    /// <summary>The value as a UTC <see cref="DateTime"/>.</summary>
    public DateTime AsDateTime()
    {
        Expect(ColumnType.DateTime);
        return new DateTime(_bits, DateTimeKind.Utc);
    }

    public Guid AsGuid()
    {
        Expect(ColumnType.Guid);
        return (Guid)_reference!;
    }

    private void Expect(ColumnType type)
    {
        if (Type != type)
        {
            throw new InvalidOperationException($"property '{Name}' is {Type}, not {type}");
        }
    }

    public bool Equals(EntityProperty other) =>
        Name == other.Name && _bits == other._bits && Equals(_reference, other._reference);

    public override bool Equals(object? obj) => obj is EntityProperty other && Equals(other);

    public override int GetHashCode() => HashCode.Combine(Name, _bits, _reference);

    public static bool operator ==(EntityProperty left, EntityProperty right) => left.Equals(right);

    public static bool operator !=(EntityProperty left, EntityProperty right) => !left.Equals(right);

    public override string ToString() => string.Create(CultureInfo.InvariantCulture, $"{Name}: {Type} = {Value}");

    /// <summary>Marks the type of an inline value; one shared instance per type.</summary>
    private sealed class TypeTag(ColumnType type)
    {
        public ColumnType Type { get; } = type;
    }
}
