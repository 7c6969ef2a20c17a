using System.Text;
using Loader.Worker.JsonLines;
using Loader.Worker.Records;

namespace Loader.Worker.Tests.JsonLines;

public sealed class JsonLinesReaderTests
{
    private static readonly JsonLinesSettings s_cosmos = new(".", KeepsJson: true, RefuseNested: false, MaxLineBytes: 1024 * 1024);
    private static readonly JsonLinesSettings s_tables = new("_", KeepsJson: false, RefuseNested: false, MaxLineBytes: 1024 * 1024);

    private static JsonLinesReader Open(string text, JsonLinesSettings? settings = null) =>
        JsonLinesReader.Open(new MemoryStream(Encoding.UTF8.GetBytes(text)), settings ?? s_cosmos);

    /// <summary>What the mapper sees of each field: the column's name (or an extra's), its kind and its text.</summary>
    private sealed class Describe(IReadOnlyList<string> columns) : IRecordMapper<List<string>>
    {
        public List<string> Map<TRecord>(in TRecord record)
            where TRecord : struct, IRecordFields
        {
            var fields = new List<string> { $"#{record.Origin.Record}@{record.Origin.Line}" };
            for (var i = 0; i < record.FieldCount + record.ExtraCount; i++)
            {
                var name = i < record.FieldCount ? columns[i] : "+" + record.ExtraName(i);
                if (!record.GetSpan(i).IsEmpty)
                {
                    fields.Add($"{name}:{record.KindOf(i)}:{record.GetString(i)}");
                }
            }

            return fields;
        }
    }

    private static List<string> Read(JsonLinesReader reader, int threads = 1) =>
        [.. reader.ReadAll(new Describe(reader.Columns), threads).Select(result => result.Malformed is { } bad
            ? $"bad line {bad.Origin.Line} after record {bad.Origin.Record}: {bad.Problem} | {bad.RawText}"
            : string.Join(" ", result.Value!))];

    [Fact]
    public void Nested_objects_are_paths_and_values_keep_their_json_types()
    {
        using var reader = Open("""
            {"id":"a1","n":42,"x":1.5,"big":12345678901234567890,"ok":true,"none":null,"customer":{"id":7,"address":{"city":"Oslo"}},"tags":["a",{"b":1}],"empty":{}}

            """);

        Assert.Equal(["id", "n", "x", "big", "ok", "customer.id", "customer.address.city", "tags", "empty"], reader.Columns);
        Assert.Equal(
            ["#1@1 id:Text:a1 n:Number:42 x:Number:1.5 big:Number:12345678901234567890 ok:Boolean:true customer.id:Number:7 customer.address.city:Text:Oslo tags:Json:[\"a\",{\"b\":1}] empty:Json:{}"],
            Read(reader));
    }

    [Fact]
    public void Table_storage_gets_paths_joined_by_its_separator_and_arrays_as_their_text()
    {
        using var reader = Open("""{"a":{"b":1},"t":[1,2]}""", s_tables);

        Assert.Equal(["#1@1 a_b:Number:1 t:Text:[1,2]"], Read(reader));
    }

    [Fact]
    public void Unicode_escapes_and_surrogate_pairs_are_unescaped()
    {
        using var reader = Open("{\"s\":\"caf\\u00e9 \\ud83d\\ude00 \\\"q\\\" 日本\",\"k\":\"plain\"}\n");

        Assert.Equal(["#1@1 s:Text:café 😀 \"q\" 日本 k:Text:plain"], Read(reader));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(3)]
    public void A_bad_line_is_malformed_with_its_line_and_byte_position_and_the_next_line_loads(int threads)
    {
        using var reader = Open("{\"k\":1}\n{\"k\":2,}\n[1,2]\n\"text\"\n{\"k\":3}\n{\"k\":4} x\n{\"k\":5}\n");

        Assert.Equal(
            [
                "#1@1 k:Number:1",
                "bad line 2 after record 1: not valid JSON at byte 8 of the line: The JSON object contains a trailing comma at the end which is not supported in this mode. Change the reader options | {\"k\":2,}",
                "bad line 3 after record 1: not a JSON object: the line holds an array | [1,2]",
                "bad line 4 after record 1: not a JSON object: the line holds a string | \"text\"",
                "#2@5 k:Number:3",
                "bad line 6 after record 2: not valid JSON at byte 9 of the line: 'x' is invalid after a single JSON value. Expected end of data | {\"k\":4} x",
                "#3@7 k:Number:5",
            ],
            Read(reader, threads));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(3)]
    public void A_name_given_twice_is_malformed_naming_it_also_when_one_of_them_holds_an_object(int threads)
    {
        using var reader = Open("{\"k\":1,\"a\":{\"b\":1}}\n{\"k\":1,\"a\":{\"b\":1,\"b\":2}}\n{\"k\":2,\"a\":{\"b\":1},\"a\":{\"c\":2}}\n{\"k\":3,\"x\":{\"y\":1},\"x\":{\"z\":2}}\n{\"k\":4,\"k\":{\"z\":2}}\n{\"k\":5}\n");

        Assert.Equal(
            [
                "#1@1 k:Number:1 a.b:Number:1",
                "bad line 2 after record 1: property 'a.b' is named twice in one object | {\"k\":1,\"a\":{\"b\":1,\"b\":2}}",
                "bad line 3 after record 1: property 'a' is named twice in one object | {\"k\":2,\"a\":{\"b\":1},\"a\":{\"c\":2}}",
                "bad line 4 after record 1: property 'x' is named twice in one object | {\"k\":3,\"x\":{\"y\":1},\"x\":{\"z\":2}}",
                "bad line 5 after record 1: property 'k' is named twice in one object | {\"k\":4,\"k\":{\"z\":2}}",
                "#2@6 k:Number:5",
            ],
            Read(reader, threads));
    }

    [Fact]
    public void Escaped_property_names_find_their_columns()
    {
        using var reader = Open("{\"key\":1,\"a\":{\"b\":\"x\"}}\n{\"k\\u0065y\":2,\"\\u0061\":{\"\\u0062\":\"y\"},\"n\\u00e9w\":true}\n");

        Assert.Equal(["#1@1 key:Number:1 a.b:Text:x", "#2@2 key:Number:2 a.b:Text:y +néw:Boolean:true"], Read(reader));
    }

    [Fact]
    public void Reading_on_several_threads_gives_what_one_thread_gives()
    {
        // Over several chunks, with lines that are no record (bad JSON, too long) where they shift the numbers of the rest of their chunk.
        var text = new StringBuilder();
        for (var i = 1; i <= 5_000; i++)
        {
            text.Append(i switch
            {
                _ when i % 701 == 0 => "{\"id\":" + i + ",\n",
                _ when i % 1009 == 0 => "{\"s\":\"" + new string('x', 3_000) + "\"}\n",
                _ when i % 13 == 0 => $"{{\"id\":{i},\"extra{i % 5}\":\"e\\u00e9\",\"o\":{{\"p\":[{i}]}}}}\n",
                _ when i % 17 == 0 => "\n",
                _ => $"{{\"o\":{{\"q\":{i}}},\"id\":{i}}}\n",
            });
        }

        var settings = s_cosmos with { MaxLineBytes = 2_000 };
        using var one = JsonLinesReader.Open(new MemoryStream(Encoding.UTF8.GetBytes(text.ToString())), settings);
        using var three = JsonLinesReader.Open(new MemoryStream(Encoding.UTF8.GetBytes(text.ToString())), settings);

        var expected = Read(one);
        Assert.Equal(5_000 - 272, expected.Count); // every line but the blank ones (multiples of 17 but not of 13)
        Assert.Contains(expected, line => line.StartsWith("bad line 701 after record ", StringComparison.Ordinal));
        Assert.Equal(expected, Read(three, threads: 3));
    }

    [Fact]
    public void Blank_lines_are_passed_over_but_counted_and_crlf_is_read()
    {
        using var reader = Open("\uFEFF{\"k\":1}\r\n\r\n   \n{\"k\":2}\r\n");

        Assert.Equal(["#1@1 k:Number:1", "#2@4 k:Number:2"], Read(reader));
        Assert.Equal(4, reader.LinesRead);
    }

    [Fact]
    public void Properties_the_first_object_lacks_are_extra_fields_and_its_missing_ones_are_empty()
    {
        using var reader = Open("{\"k\":1,\"a\":\"x\"}\n{\"k\":2,\"b\":{\"c\":false}}\n");

        Assert.Equal(["#1@1 k:Number:1 a:Text:x", "#2@2 k:Number:2 +b.c:Boolean:false"], Read(reader));
    }

    [Fact]
    public void Refusing_nested_values_fails_at_start_for_the_first_object_and_rejects_a_later_line()
    {
        var refuse = s_tables with { RefuseNested = true };
        var atStart = Assert.Throws<InputHeaderException>(() => Open("{\"k\":1,\"a\":{\"b\":1}}\n", refuse));
        Assert.Contains("property 'a'", atStart.Message, StringComparison.Ordinal);
        Assert.Contains("Loader:Json:Nested is Refuse", atStart.Message, StringComparison.Ordinal);

        using var reader = Open("{\"k\":1}\n{\"k\":2,\"t\":[1]}\n", refuse);
        Assert.Equal(
            ["#1@1 k:Number:1", "bad line 2 after record 1: property 't' holds an array, and Loader:Json:Nested is Refuse: Table Storage entities are flat (set it to Flatten to write its members as properties of their own) | {\"k\":2,\"t\":[1]}"],
            Read(reader));
    }

    [Fact]
    public void An_input_without_any_object_says_so()
    {
        Assert.Contains("empty", Assert.Throws<InputHeaderException>(() => Open("\n\n")).Message, StringComparison.Ordinal);
        Assert.Contains("line 1: not a JSON object", Assert.Throws<InputHeaderException>(() => Open("42\n")).Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Skipping_settled_records_folds_their_lines_into_the_fingerprint_as_reading_them_does()
    {
        const string text = "{\"k\":1}\nnot json\n{\"k\":2}\r\n{\"k\":3}\n";
        var skipped = new RecordSequenceHash();
        using (var reader = Open(text))
        {
            Assert.Equal(2, reader.Skip(2, skipped));
            Assert.Equal(1, reader.MalformedSkipped);
            Assert.Equal(3, reader.LastSkippedLine);
            Assert.Equal(["#3@4 k:Number:3"], Read(reader));
        }

        var read = new RecordSequenceHash();
        read.Add(RecordSequenceHash.Digest("{\"k\":1}"u8));
        read.Add(RecordSequenceHash.Digest("{\"k\":2}"u8));
        Assert.Equal(read.Current, skipped.Current);
    }

    [Fact]
    public void A_line_longer_than_the_limit_is_malformed_and_reading_goes_on()
    {
        var longLine = "{\"s\":\"" + new string('x', 300_000) + "\"}";
        using var reader = Open("{\"k\":1}\n" + longLine + "\n{\"k\":2}\n", s_cosmos with { MaxLineBytes = 100_000 });

        var results = Read(reader);
        Assert.Equal(3, results.Count);
        Assert.StartsWith("bad line 2 after record 1: the line is longer than Loader:Csv:MaxRecordBytes (100,000 bytes)", results[1], StringComparison.Ordinal);
        Assert.Equal("#2@3 k:Number:2", results[2]);
    }

    /// <summary>A stream that fails after its first <paramref name="good"/> bytes, as a damaged or cut input does.</summary>
    private sealed class FailingStream(byte[] good) : MemoryStream(good)
    {
        public override int Read(byte[] buffer, int offset, int count) =>
            base.Read(buffer, offset, count) is var read && read > 0 ? read : throw new IOException("the input failed here");
    }

    [Theory]
    [InlineData(1)]
    [InlineData(3)]
    public void A_failing_input_gives_out_every_whole_record_before_the_failure_then_throws(int threads)
    {
        var text = new StringBuilder();
        for (var i = 1; i <= 5_000; i++)
        {
            text.Append("{\"k\":").Append(i).Append("}\n");
        }

        using var reader = JsonLinesReader.Open(new FailingStream(Encoding.UTF8.GetBytes(text.ToString())[..^5]), s_cosmos);
        var read = new List<string>();

        var failure = Assert.Throws<IOException>(() =>
        {
            foreach (var result in reader.ReadAll(new Describe(reader.Columns), threads))
            {
                read.Add(string.Join(" ", result.Value!));
            }
        });

        Assert.Equal("the input failed here", failure.Message);
        Assert.Equal(4_999, read.Count); // the last line is cut: the failure comes before its end
        Assert.Equal("#4999@4999 k:Number:4999", read[^1]);
    }
}
