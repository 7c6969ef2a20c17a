using Loader.Abstractions;
using Loader.Worker.Backends.Tables;

namespace Loader.Worker.Tests.Backends.Tables;

/// <summary>Each Table service rule at its boundary: the last value it allows, and the first it refuses with a reason.</summary>
public sealed class TableEntityRulesTests
{
    private readonly TableEntityRules _rules = new(tableUrlBytes: 40);

    private string? Violation(string partitionKey, string rowKey, params EntityProperty[] properties) =>
        _rules.Inspect(partitionKey, rowKey, properties).Violation;

    [Fact]
    public void A_key_holds_512_characters_and_not_one_more()
    {
        Assert.Null(Violation(new string('p', 512), new string('r', 512)));
        Assert.Equal("partition key is 513 characters, longer than the 512 (1 KiB) a Table key may hold", Violation(new string('p', 513), "r"));
        Assert.Equal("row key is 513 characters, longer than the 512 (1 KiB) a Table key may hold", Violation("p", new string('r', 513)));
        Assert.Equal("row key is empty", Violation("p", ""));
    }

    [Theory]
    [InlineData('/', "'/'")]
    [InlineData('\\', "'\\'")]
    [InlineData('#', "'#'")]
    [InlineData('?', "'?'")]
    [InlineData('\u0000', "control character U+0000")]
    [InlineData('\u001F', "control character U+001F")]
    [InlineData('\u007F', "control character U+007F")]
    [InlineData('\u009F', "control character U+009F")]
    public void Forbidden_key_characters_are_named(char forbidden, string described)
    {
        Assert.Equal($"partition key contains {described}, which Table keys may not contain", Violation($"a{forbidden}b", "r"));
    }

    [Theory]
    [InlineData(' ')]
    [InlineData('\u00A0')]
    [InlineData('~')]
    public void Characters_next_to_the_forbidden_ranges_are_allowed(char allowed)
    {
        Assert.Null(Violation($"a{allowed}b", $"a{allowed}b"));
    }

    [Fact]
    public void A_string_property_holds_32768_characters_and_not_one_more()
    {
        Assert.Null(Violation("p", "r", EntityProperty.FromString("v", new string('a', 32_768))));
        Assert.Equal("column 'v': 32,769 characters, longer than the 32,768 (64 KiB) a string property may hold",
            Violation("p", "r", EntityProperty.FromString("v", new string('a', 32_769))));
    }

    [Fact]
    public void An_entity_holds_252_properties_and_not_one_more()
    {
        EntityProperty[] Properties(int count) => [.. Enumerable.Range(0, count).Select(i => EntityProperty.FromInt32($"c{i}", i))];

        Assert.Null(Violation("p", "r", Properties(252)));
        Assert.Equal("253 properties, more than the 252 an entity may have", Violation("p", "r", Properties(253)));
    }

    [Fact]
    public void Dates_from_1601_are_stored_and_earlier_ones_refused()
    {
        Assert.Null(Violation("p", "r", EntityProperty.FromDateTime("d", new DateTime(1601, 1, 1, 0, 0, 0, DateTimeKind.Utc))));
        Assert.Equal("column 'd': dates before 1601-01-01 cannot be stored",
            Violation("p", "r", EntityProperty.FromDateTime("d", new DateTime(1600, 12, 31, 23, 59, 59, DateTimeKind.Utc))));
    }

    [Fact]
    public void An_entity_is_stored_up_to_exactly_1_MiB_as_the_service_counts_it()
    {
        // The service counts 4 bytes, the keys in UTF-16 (4 bytes for "p" and "r"), and per string property 8 bytes,
        // its name in UTF-16 and 4 + 2 bytes a character: 15 full strings named c0..c14 take 983,290 bytes
        // (names of 2 and 3 characters), so a 16th named "c15" of 32,630 characters brings the entity to 1,048,576.
        EntityProperty[] Properties(int lastLength) =>
        [
            .. Enumerable.Range(0, 15).Select(i => EntityProperty.FromString($"c{i}", new string('a', 32_768))),
            EntityProperty.FromString("c15", new string('a', lastLength)),
        ];

        Assert.Null(Violation("p", "r", Properties(32_630)));
        Assert.Equal("entity is 1,048,578 bytes, larger than the 1 MiB the service stores", Violation("p", "r", Properties(32_631)));
    }

    [Theory]
    [InlineData("_private", null)]
    [InlineData("a1", null)]
    [InlineData("", "is empty")]
    [InlineData("1a", "must start with a letter or '_'")]
    [InlineData("a-b", "contains '-'; property names hold only letters, digits and '_'")]
    public void Property_names_are_identifiers(string name, string? problem)
    {
        Assert.Equal(problem, TableEntityRules.CheckPropertyName(name));
    }

    [Fact]
    public void A_property_name_holds_255_characters_and_not_one_more()
    {
        Assert.Null(TableEntityRules.CheckPropertyName(new string('n', 255)));
        Assert.Equal("is 256 characters long, more than 255", TableEntityRules.CheckPropertyName(new string('n', 256)));
    }
}
