using System.Text;
using Loader.Worker.Csv;

namespace Loader.Worker.Tests.Csv;

public sealed class CsvRecordReaderTests
{
    private static CsvRecordReader Open(string text, string delimiter = ",") =>
        CsvRecordReader.Open(new MemoryStream(Encoding.UTF8.GetBytes(text)), new CsvOptions { Delimiter = delimiter });

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(4)]
    public void Malformed_records_come_back_in_input_order_with_their_lines_whatever_the_mapping_threads(int threads)
    {
        var text = new StringBuilder("a,b,c\n");
        var expected = new List<string>();
        for (var i = 1; i <= 5_000; i++)
        {
            if (i % 97 == 0)
            {
                text.Append(i).Append(",short\n");
                expected.Add($"bad:{i}");
            }
            else if (i % 89 == 0)
            {
                text.Append(i).Append(",x\"y,z\n");
                expected.Add($"quote:{i}");
            }
            else
            {
                text.Append(i).Append(",\"two\nlines\",z\n");
                expected.Add($"ok:{i}");
            }
        }

        using var reader = Open(text.ToString());
        var seen = new List<string>();
        var lines = new List<long>();
        foreach (var record in reader.ReadAll(csv => (Id: csv.GetString(0), csv.LineNumber), threads))
        {
            if (record.Malformed is { } malformed)
            {
                var id = malformed.RawText.Split(',')[0];
                seen.Add((malformed.Problem.StartsWith("has 2 fields", StringComparison.Ordinal) ? "bad:" : "quote:") + id);
                lines.Add(malformed.Origin.Line);
            }
            else
            {
                seen.Add("ok:" + record.Value.Id);
                lines.Add(record.Value.LineNumber);
            }
        }

        Assert.Equal(expected, seen);
        Assert.Equal(lines.Order(), lines); // lines only grow: order is input order
        Assert.Equal(2L, lines[0]);
    }

    [Fact]
    public void Names_a_wrong_field_count_and_keeps_the_raw_text()
    {
        using var reader = Open("a,b\n1,2,3\n");

        var record = Assert.Single(reader.ReadAll(csv => 0, 1));

        Assert.Equal("has 3 fields, the header has 2", record.Malformed!.Problem);
        Assert.Equal("1,2,3", record.Malformed.RawText);
        Assert.Equal(2, record.Malformed.Origin.Line);
    }

    [Theory]
    [InlineData("")]
    [InlineData("\n\n")]
    public void An_empty_input_has_no_header(string text)
    {
        var exception = Assert.Throws<CsvHeaderException>(() => Open(text));

        Assert.Contains("the input is empty", exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Skip_passes_over_well_formed_records_and_counts_malformed_ones_it_meets()
    {
        using var reader = Open("a,b\n1,1\n2\n3,3\n4,4\n");

        Assert.Equal(2, reader.Skip(2));
        Assert.Equal(1, reader.MalformedSkipped);
        Assert.Equal(["4"], reader.ReadAll(csv => csv.GetString(0), 1).Select(r => r.Value));
    }

    [Theory]
    [InlineData("\\t", '\t')]
    [InlineData("tab", '\t')]
    [InlineData(";", ';')]
    public void Delimiter_settings_name_one_ascii_character(string setting, char separator)
    {
        Assert.Equal(separator, CsvRecordReader.Separator(setting));
    }
}
