using Loader.Worker.Mapping;

namespace Loader.Worker.Tests.Mapping;

public sealed class KeyTemplateTests
{
    [Fact]
    public void Parses_literals_and_columns_in_order()
    {
        var template = KeyTemplate.Parse("{year}-{month}-x{carrier}");

        Assert.Equal(
            [
                KeyTemplate.Segment.Column("year"), KeyTemplate.Segment.Literal("-"), KeyTemplate.Segment.Column("month"),
                KeyTemplate.Segment.Literal("-x"), KeyTemplate.Segment.Column("carrier"),
            ],
            template.Segments);
        Assert.Equal(["year", "month", "carrier"], template.Columns);
    }

    [Fact]
    public void Doubled_braces_are_literal_braces()
    {
        var template = KeyTemplate.Parse("{{{id}}}");

        Assert.Equal([KeyTemplate.Segment.Literal("{"), KeyTemplate.Segment.Column("id"), KeyTemplate.Segment.Literal("}")], template.Segments);
    }

    [Theory]
    [InlineData("", "is empty")]
    [InlineData("{year", "position 1 that is never closed")]
    [InlineData("a}b", "'}' at position 2")]
    [InlineData("x{}y", "empty or nested placeholder at position 2")]
    [InlineData("constant", "names no column")]
    public void Rejects_bad_templates_saying_where(string text, string expected)
    {
        var exception = Assert.Throws<FormatException>(() => KeyTemplate.Parse(text));

        Assert.Contains(expected, exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Renders_from_fields_and_names_the_empty_column()
    {
        var index = new Dictionary<string, int> { ["a"] = 0, ["b"] = 1 };
        var compiled = CompiledKeyTemplate.Compile(KeyTemplate.Parse("{a}|{b}"), index);

        Assert.Equal("x|y", compiled.Render(["x", "y"], out _));
        Assert.Null(compiled.Render(["x", ""], out var empty));
        Assert.Equal("b", empty);
    }

    [Fact]
    public void A_single_column_template_returns_the_field_itself()
    {
        var compiled = CompiledKeyTemplate.Compile(KeyTemplate.Parse("{a}"), new Dictionary<string, int> { ["a"] = 1 });
        string[] fields = ["zero", "one"];

        Assert.Same(fields[1], compiled.Render(fields, out _));
    }
}
