using System.Text;
using CsvHelper;
using Loader.Worker.Csv;
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
    public void Renders_from_the_record_and_names_the_empty_column()
    {
        var index = new Dictionary<string, int> { ["a"] = 0, ["b"] = 1 };
        var compiled = CompiledKeyTemplate.Compile(KeyTemplate.Parse("{a}|{b}"), index);

        using var full = RecordOf("a,b\nx,y\n");
        Assert.Equal("x|y", compiled.Render(new CsvFields(full), new string?[2], out _));
        using var partial = RecordOf("a,b\nx,\n");
        Assert.Null(compiled.Render(new CsvFields(partial), new string?[2], out var empty));
        Assert.Equal("b", empty);
    }

    [Fact]
    public void Renders_quoted_and_non_ascii_cells_as_their_text()
    {
        var compiled = CompiledKeyTemplate.Compile(KeyTemplate.Parse("{a}-{b}"), new Dictionary<string, int> { ["a"] = 0, ["b"] = 1 });
        using var record = RecordOf("a,b\n\"ü,\"\"q\"\"\",日本\n");

        Assert.Equal("ü,\"q\"-日本", compiled.Render(new CsvFields(record), new string?[2], out _));
    }

    [Fact]
    public void A_single_column_template_returns_the_cell_string_and_keeps_it_for_the_properties()
    {
        var compiled = CompiledKeyTemplate.Compile(KeyTemplate.Parse("{a}"), new Dictionary<string, int> { ["a"] = 1 });
        using var record = RecordOf("z,a\nzero,one\n");
        var strings = new string?[2];

        var key = compiled.Render(new CsvFields(record), strings, out _);

        Assert.Equal("one", key);
        Assert.Same(key, strings[1]);
    }

    private static CsvReader RecordOf(string csv)
    {
        var reader = CsvReader.Create(new MemoryStream(Encoding.UTF8.GetBytes(csv)), new CsvReaderOptions { HasHeader = true }, leaveOpen: false);
        _ = reader.Headers;
        Assert.True(reader.Read());
        return reader;
    }


    [Theory]
    [InlineData("{origin},{dest}", new[] { "{origin}", "{dest}" })]
    [InlineData("{tenant}, {user} ,t-{session}", new[] { "{tenant}", "{user}", "t-{session}" })]
    [InlineData("{city, state},{zip}", new[] { "{city, state}", "{zip}" })]
    [InlineData("{{,}},{a}", new[] { "{{", "}}", "{a}" })]
    [InlineData("{pk}", new[] { "{pk}" })]
    public void Levels_of_a_hierarchical_key_are_cut_at_commas_outside_placeholders(string text, string[] levels)
    {
        Assert.Equal(levels, KeyTemplate.SplitLevels(text));
    }
}
