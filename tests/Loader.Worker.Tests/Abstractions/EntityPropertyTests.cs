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

    [Fact]
    public void Names_rows_bring_stop_being_registered_once_the_registry_is_full_and_still_hold_their_values()
    {
        // The registry is the process's: fill it to its limit for row names (other tests' names count too).
        for (var i = 0; PropertyName.RegisteredCount < PropertyName.RowNamesRegistered; i++)
        {
            PropertyName.OfRow($"filler_{i}_{Guid.NewGuid():N}");
        }

        var before = PropertyName.RegisteredCount;
        var text = EntityProperty.FromString(PropertyName.OfRow("only_this_row_text"), "v");
        var number = EntityProperty.FromInt32(PropertyName.OfRow("only_this_row_number"), 7);
        var guid = EntityProperty.FromGuid(PropertyName.OfRow("only_this_row_guid"), Guid.Empty);
        var binary = EntityProperty.FromBinary(PropertyName.OfRow("only_this_row_bytes"), [1, 2]);

        Assert.Equal(before, PropertyName.RegisteredCount);
        Assert.Equal(("only_this_row_text", ColumnType.String, "v"), (text.Name, text.Type, text.AsString()));
        Assert.Equal(("only_this_row_number", ColumnType.Int32, 7), (number.Name, number.Type, number.AsInt32()));
        Assert.Equal(("only_this_row_guid", Guid.Empty), (guid.Name, guid.AsGuid()));
        Assert.Equal(new byte[] { 1, 2 }, binary.AsBinary().ToArray());
        Assert.NotSame(PropertyName.OfRow("only_this_row_text"), PropertyName.OfRow("only_this_row_text"));
        Assert.Equal(PropertyName.OfRow("only_this_row_text"), PropertyName.OfRow("only_this_row_text"));
        Assert.Equal(text, EntityProperty.FromString(PropertyName.OfRow("only_this_row_text"), "v"));
        Assert.Equal(number, EntityProperty.FromInt32(PropertyName.OfRow("only_this_row_number"), 7));
        Assert.NotEqual(number, EntityProperty.FromInt32(PropertyName.OfRow("only_this_row_number"), 8));
        Assert.NotEqual(text, EntityProperty.FromString(PropertyName.OfRow("only_this_row_other"), "v"));

        // Names from headers and settings are registered whatever the count, and a registered name is the one rows get.
        var header = PropertyName.Of("header_column_after_the_limit");
        Assert.True(header.IsRegistered);
        Assert.Same(header, PropertyName.OfRow("header_column_after_the_limit"));
    }
}
