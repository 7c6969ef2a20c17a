using System.Globalization;
using System.Text;
using Loader.Worker.Csv;
using Loader.Worker.Inputs;
using Loader.Worker.Inputs.Compression;
using Loader.Worker.Tests.Infrastructure;
using Loader.Worker.Records;

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
        var exception = Assert.Throws<InputHeaderException>(() => Open(text));

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

    /// <summary>A gzip file of rows numbered 1 to <paramref name="rows"/>, each with a field that spans two lines, cut at <paramref name="keep"/> bytes and <paramref name="appended"/> after it.</summary>
    private static LocalFilePart Gzip(TestDirectory directory, int rows, Func<byte[], int> keep, byte[] appended)
    {
        var text = new StringBuilder("id,note,check\n");
        for (var i = 1; i <= rows; i++)
        {
            text.Append(CultureInfo.InvariantCulture, $"{i},\"row {i},\nacross two lines\",{i * 7}\n");
        }

        var compressed = Compressed.Bytes(InputCompression.Gzip, Encoding.UTF8.GetBytes(text.ToString()));
        var bytes = compressed[..keep(compressed)].Concat(appended).ToArray();
        var path = directory.File("input.csv.gz");
        File.WriteAllBytes(path, bytes);
        return new LocalFilePart(path, bytes.Length) { Compression = InputCompression.Gzip };
    }

    private static (List<(int Id, string Note, int Check)> Records, Exception Failure) ReadUntilFailure(InputPart part, int threads)
    {
        using var reader = CsvRecordReader.Open(part.Open(bufferSize: 4096), new CsvOptions());
        var records = new List<(int Id, string Note, int Check)>();
        var failure = Assert.ThrowsAny<IOException>(() =>
        {
            foreach (var record in reader.ReadAll(csv => (int.Parse(csv.GetString(0), CultureInfo.InvariantCulture), csv.GetString(1), int.Parse(csv.GetString(2), CultureInfo.InvariantCulture)), threads))
            {
                records.Add(record.Value);
            }
        });
        return (records, failure);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(4)]
    public void When_the_input_fails_after_its_last_record_every_record_comes_out_before_the_failure(int threads)
    {
        using var directory = new TestDirectory();
        var part = Gzip(directory, 3_000, compressed => compressed.Length, Encoding.ASCII.GetBytes("3001,appended,0\n"));

        var (records, failure) = ReadUntilFailure(part, threads);

        Assert.IsType<DamagedInputException>(failure);
        Assert.Equal(Enumerable.Range(1, 3_000), records.Select(record => record.Id));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(4)]
    public void When_the_input_is_cut_inside_a_record_the_whole_records_before_it_come_out_and_none_cut_short(int threads)
    {
        using var directory = new TestDirectory();
        var part = Gzip(directory, 3_000, compressed => compressed.Length * 2 / 3, []);

        var (records, failure) = ReadUntilFailure(part, threads);

        Assert.IsType<DamagedInputException>(failure);
        Assert.InRange(records.Count, 1_000, 2_999);
        Assert.Equal(Enumerable.Range(1, records.Count), records.Select(record => record.Id));
        Assert.All(records, record => Assert.Equal((string.Create(CultureInfo.InvariantCulture, $"row {record.Id},\nacross two lines"), record.Id * 7), (record.Note, record.Check)));
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
