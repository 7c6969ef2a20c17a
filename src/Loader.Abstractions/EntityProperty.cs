using System.Globalization;

namespace Loader.Abstractions;

/// <summary>
/// One typed property of an entity, in 16 bytes: numbers, booleans and dates are held inline, not boxed, and the
/// name is a registered <see cref="PropertyName"/>, not a reference per property. A load keeps tens of thousands
/// of rows waiting in partial batches, and every byte and reference per row costs garbage-collector time on each
/// collection they survive. Create with <see cref="FromString(PropertyName, string)"/>, <see cref="FromInt32(PropertyName, int)"/>,
/// ...; read with the matching <c>As*</c> method.
/// </summary>
public readonly struct EntityProperty : IEquatable<EntityProperty>
{
    // A String of a registered name: the id of its name. Inline types: the value's bits.
    private readonly long _bits;

    // A String: its value (of a name not registered, a box holding name and value). Inline types: the tag of their name
    // and type. A Guid, Json or Binary: a box holding name and value.
    private readonly object _reference;

    private EntityProperty(long bits, object reference)
    {
        _bits = bits;
        _reference = reference;
    }

    public string Name => Registered.Text;

    private PropertyName Registered => _reference is string ? PropertyName.ById((int)_bits) : Tag("name").Name;

    public ColumnType Type => _reference is string ? ColumnType.String : Tag("type").Type;

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
        ColumnType.Json => AsJson(),
        ColumnType.Binary => AsBinary().ToArray(),
        _ => throw new InvalidOperationException($"unknown column type {Type}"),
    };

    public static EntityProperty FromString(PropertyName name, string value)
    {
        ArgumentNullException.ThrowIfNull(value);
        return name.IsRegistered ? new(name.Id, value) : new(0, new NamedString(name, value));
    }

    public static EntityProperty FromInt32(PropertyName name, int value) => new(value, name.Tag(ColumnType.Int32));

    public static EntityProperty FromInt64(PropertyName name, long value) => new(value, name.Tag(ColumnType.Int64));

    public static EntityProperty FromDouble(PropertyName name, double value) => new(BitConverter.DoubleToInt64Bits(value), name.Tag(ColumnType.Double));

    public static EntityProperty FromBoolean(PropertyName name, bool value) => new(value ? 1 : 0, name.Tag(ColumnType.Boolean));

    /// <summary>A point in time, held as UTC.</summary>
    public static EntityProperty FromDateTime(PropertyName name, DateTime value) =>
        new((value.Kind == DateTimeKind.Local ? value.ToUniversalTime() : value).Ticks, name.Tag(ColumnType.DateTime));

    /// <summary>Guids are rare in loads; the one type that is boxed.</summary>
    public static EntityProperty FromGuid(PropertyName name, Guid value) => new(0, new NamedGuid(name, value));

    /// <summary>A JSON value as its text, which the caller has checked is one well-formed value; boxed like a Guid.</summary>
    public static EntityProperty FromJson(PropertyName name, string json) => new(0, new NamedJson(name, json ?? throw new ArgumentNullException(nameof(json))));

    /// <summary>Bytes, which the property keeps (the caller hands over the array); boxed like a Guid.</summary>
    public static EntityProperty FromBinary(PropertyName name, byte[] value) => new(0, new NamedBinary(name, value ?? throw new ArgumentNullException(nameof(value))));

    public static EntityProperty FromString(string name, string value) => FromString(PropertyName.Of(name), value);

    public static EntityProperty FromInt32(string name, int value) => FromInt32(PropertyName.Of(name), value);

    public static EntityProperty FromInt64(string name, long value) => FromInt64(PropertyName.Of(name), value);

    public static EntityProperty FromDouble(string name, double value) => FromDouble(PropertyName.Of(name), value);

    public static EntityProperty FromBoolean(string name, bool value) => FromBoolean(PropertyName.Of(name), value);

    public static EntityProperty FromDateTime(string name, DateTime value) => FromDateTime(PropertyName.Of(name), value);

    public static EntityProperty FromGuid(string name, Guid value) => FromGuid(PropertyName.Of(name), value);

    public static EntityProperty FromJson(string name, string json) => FromJson(PropertyName.Of(name), json);

    public static EntityProperty FromBinary(string name, byte[] value) => FromBinary(PropertyName.Of(name), value);

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
        ColumnType.Json => FromJson(name, (string)value),
        ColumnType.Binary => FromBinary(name, (byte[])value),
        _ => throw new ArgumentOutOfRangeException(nameof(type), type, "unknown column type"),
    };

    // Every reference but a registered name's string is a tag (the factories make no other): one type test, then a field.
    private PropertyTag Tag(string what) => _reference is not null
        ? System.Runtime.CompilerServices.Unsafe.As<PropertyTag>(_reference)
        : throw new InvalidOperationException($"an uninitialized property has no {what}");

    public string AsString()
    {
        Expect(ColumnType.String);
        return _reference as string ?? ((NamedString)_reference).Value;
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
        return ((NamedGuid)_reference).Value;
    }

    /// <summary>The JSON value's text, as the cell held it.</summary>
    public string AsJson()
    {
        Expect(ColumnType.Json);
        return ((NamedJson)_reference).Json;
    }

    /// <summary>The bytes.</summary>
    public ReadOnlyMemory<byte> AsBinary()
    {
        Expect(ColumnType.Binary);
        return ((NamedBinary)_reference).Value;
    }

    private void Expect(ColumnType type)
    {
        if (Type != type)
        {
            throw new InvalidOperationException($"property '{Name}' is {Type}, not {type}");
        }
    }

    // Equal bits and references mean equal names too: a String's bits are its registered name's id, and the boxes and tags
    // of names not registered are equal by the name's text.
    public bool Equals(EntityProperty other) => _bits == other._bits && Equals(_reference, other._reference);

    public override bool Equals(object? obj) => obj is EntityProperty other && Equals(other);

    public override int GetHashCode() => HashCode.Combine(_bits, _reference);

    public static bool operator ==(EntityProperty left, EntityProperty right) => left.Equals(right);

    public static bool operator !=(EntityProperty left, EntityProperty right) => !left.Equals(right);

    public override string ToString() => string.Create(CultureInfo.InvariantCulture, $"{Name}: {Type} = {Value}");

    private sealed record NamedString(PropertyName Name, string Value) : PropertyTag(Name, ColumnType.String);

    private sealed record NamedGuid(PropertyName Name, Guid Value) : PropertyTag(Name, ColumnType.Guid);

    private sealed record NamedJson(PropertyName Name, string Json) : PropertyTag(Name, ColumnType.Json);

    // Equal by the bytes, not the array, as the other types are equal by value.
    private sealed record NamedBinary(PropertyName Name, byte[] Value) : PropertyTag(Name, ColumnType.Binary)
    {
        public bool Equals(NamedBinary? other) => other is not null && Name.Equals(other.Name) && Value.AsSpan().SequenceEqual(other.Value);

        public override int GetHashCode() => HashCode.Combine(Name, Value.Length);
    }
}
