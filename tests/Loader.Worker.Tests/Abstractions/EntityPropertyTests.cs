using System.Runtime.CompilerServices;
using Loader.Abstractions;

namespace Loader.Worker.Tests.Abstractions;

public sealed class EntityPropertyTests
{
    public static TheoryData<ColumnType, object> Values => new()
    {
        { ColumnType.String, "text" },
        { ColumnType.Int32, int.MinValue },
        { ColumnType.Int64, long.MaxValue },
        { ColumnType.Double, -0.1 },
        { ColumnType.Boolean, true },
        { ColumnType.DateTime, new DateTime(1601, 1, 1, 0, 0, 0, DateTimeKind.Utc) },
        { ColumnType.Guid, Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e") },
    };

    [Theory]
    [MemberData(nameof(Values))]
    public void Holds_each_type_and_gives_it_back(ColumnType type, object value)
    {
        var property = EntityProperty.From("p", type, value);

        Assert.Equal(type, property.Type);
        Assert.Equal(value, property.Value);
        Assert.Equal(property, EntityProperty.From("p", type, value));
    }

    [Fact]
    public void Reading_as_the_wrong_type_is_an_error_naming_the_property()
    {
        var exception = Assert.Throws<InvalidOperationException>(() => EntityProperty.FromInt32("count", 1).AsString());

        Assert.Equal("property 'count' is Int32, not String", exception.Message);
    }

    [Fact]
    public void Local_times_are_held_as_utc()
    {
        var local = new DateTime(2024, 6, 1, 12, 0, 0, DateTimeKind.Local);

        Assert.Equal(local.ToUniversalTime(), EntityProperty.FromDateTime("t", local).AsDateTime());
    }

    [Fact]
    public void A_property_takes_sixteen_bytes_whatever_its_type()
    {
        // Rows wait in partial batches by the tens of thousands; every byte of a property is copied by each collection they survive.
        Assert.Equal(16, Unsafe.SizeOf<EntityProperty>());
    }

    [Theory]
    [MemberData(nameof(Values))]
    public void Keeps_its_name_for_each_type(ColumnType type, object value)
    {
        var property = EntityProperty.From("departure_delay", type, value);

        Assert.Equal("departure_delay", property.Name);
        Assert.NotEqual(property, EntityProperty.From("arrival_delay", type, value));
    }

    [Fact]
    public void The_same_name_is_registered_once()
    {
        Assert.Same(PropertyName.Of("carrier"), PropertyName.Of(new string("carrier".AsSpan())));
        Assert.NotSame(PropertyName.Of("carrier"), PropertyName.Of("Carrier"));
    }
}
