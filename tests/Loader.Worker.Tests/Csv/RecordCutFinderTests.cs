using System.Globalization;
using System.Text;
using Loader.Worker.Csv;
using Loader.Worker.Inputs;
using Loader.Worker.Tests.Infrastructure;
using Loader.Worker.Records;

namespace Loader.Worker.Tests.Csv;

/// <summary>
/// The planning pass of range shards: cuts fall only where a record starts, never on a line break inside a quoted field
/// nor inside a span the runaway-quote guard rejects, and the ranges read behind the header give back exactly the records
/// of the whole file, in order, each once.
/// </summary>
public sealed class RecordCutFinderTests : IDisposable
{
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private static string Text(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);

    [Fact]
    public void Ranges_cut_at_the_found_boundaries_read_back_every_record_once_with_quoted_line_breaks_whole()
    {
        var csv = new StringBuilder("id,text\r\n");
        for (var i = 1; i <= 3_000; i++)
        {
            // Every third record spans lines inside quotes, with an escaped quote; a target often lands inside one.
            csv.Append(i % 3 == 0 ? Text($"{i},\"first line {i}\n\"\"second\"\" line\r\nthird\"\r\n") : Text($"{i},plain {i}\r\n"));
        }

        var path = _directory.File("quoted.csv");
        File.WriteAllText(path, csv.ToString());
        var bytes = File.ReadAllBytes(path);
        var targets = Enumerable.Range(1, 40).Select(n => (long)n * bytes.Length / 41).ToList();

        RecordCuts found;
        using (var stream = File.OpenRead(path))
        {
            found = RecordCutFinder.Find(stream, new CsvOptions(), targets, TestContext.Current.CancellationToken)!;
        }

        Assert.Equal("id,text\r\n".Length, found.HeaderBytes);
        Assert.Equal(targets.Count, found.Cuts.Count);
        for (var i = 0; i < found.Cuts.Count; i++)
        {
            var cut = found.Cuts[i];
            Assert.True(cut.Offset >= targets[i], $"cut {i} at {cut.Offset} is before its target {targets[i]}");
            Assert.Equal((byte)'\n', bytes[cut.Offset - 1]);
            // The record starting there is the one after RecordsBefore: its id is the next number.
            Assert.StartsWith(string.Create(CultureInfo.InvariantCulture, $"{cut.RecordsBefore + 1},"), Encoding.UTF8.GetString(bytes, (int)cut.Offset, 12), StringComparison.Ordinal);
        }

        var whole = new LocalFilePart(path, bytes.Length);
        var starts = new[] { 0L }.Concat(found.Cuts.Select(cut => cut.Offset)).ToList();
        var ids = new List<int>();
        for (var i = 0; i < starts.Count; i++)
        {
            var end = i + 1 < starts.Count ? starts[i + 1] : bytes.Length;
            var range = new RangePart(whole, found.HeaderBytes, starts[i], end);
            using var stream = range.Open(4096);
            using var reader = CsvRecordReader.Open(stream, new CsvOptions());
            foreach (var record in reader.ReadAll(csv => (Id: int.Parse(csv.GetString(0), CultureInfo.InvariantCulture), Text: csv.GetString(1)), 1))
            {
                var (id, text) = record.Value;
                ids.Add(id);
                Assert.Equal(id % 3 == 0 ? Text($"first line {id}\n\"second\" line\r\nthird") : Text($"plain {id}"), text);
            }
        }

        Assert.Equal(Enumerable.Range(1, 3_000), ids);
    }

    [Fact]
    public void A_runaway_quote_is_never_cut_inside_and_a_part_without_records_is_not_cut()
    {
        var csv = new StringBuilder("id,text\n");
        for (var i = 1; i <= 400; i++)
        {
            // Record 100 opens a quote it never closes: the guard rejects its line and reads on from the next.
            csv.Append(i == 100 ? Text($"{i},\"never closed\n") : Text($"{i},text {i}\n"));
        }

        var bytes = Encoding.UTF8.GetBytes(csv.ToString());
        var targets = Enumerable.Range(1, 20).Select(n => (long)n * bytes.Length / 21).ToList();
        var found = RecordCutFinder.Find(new MemoryStream(bytes), new CsvOptions(), targets, TestContext.Current.CancellationToken)!;
        foreach (var cut in found.Cuts)
        {
            Assert.Equal((byte)'\n', bytes[cut.Offset - 1]);
            Assert.Matches("^[0-9]+,text [0-9]+\n", Encoding.UTF8.GetString(bytes, (int)cut.Offset, (int)Math.Min(20, bytes.Length - cut.Offset)));
        }

        Assert.Null(RecordCutFinder.Find(new MemoryStream("id,text\n"u8.ToArray()), new CsvOptions(), [4], TestContext.Current.CancellationToken));
    }
}
