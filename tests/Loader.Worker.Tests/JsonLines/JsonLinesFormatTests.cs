using System.Globalization;
using System.Text;
using Loader.Worker.Inputs;
using Loader.Worker.JsonLines;
using Loader.Worker.Records;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.JsonLines;

/// <summary>
/// The planning pass of range shards for JSON Lines: cuts fall at the start of a line holding an object, never inside a
/// line nor on a bad one, and the ranges, read with nothing before them, give back every record of the whole file once.
/// </summary>
public sealed class JsonLinesFormatTests : IDisposable
{
    private static readonly JsonLinesSettings s_settings = new(".", KeepsJson: true, RefuseNested: false, MaxLineBytes: 1024 * 1024);

    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private sealed class IdOf : IRecordMapper<long>
    {
        public long Map<TRecord>(in TRecord record)
            where TRecord : struct, IRecordFields => long.Parse(record.GetString(0), CultureInfo.InvariantCulture);
    }

    [Fact]
    public void Ranges_cut_at_line_starts_read_back_every_record_once()
    {
        var text = new StringBuilder();
        for (var i = 1; i <= 3_000; i++)
        {
            // Long and short lines, CRLF and LF, a bad line now and then: targets land inside lines and on bad ones.
            text.Append(i % 97 == 0 ? "{not json\n" : "").Append(CultureInfo.InvariantCulture, $"{{\"id\":{i},\"s\":\"{new string('x', i % 50)}\",\"o\":{{\"a\":[1,2]}}}}").Append(i % 2 == 0 ? "\r\n" : "\n");
        }

        var path = _directory.File("records.jsonl");
        File.WriteAllText(path, text.ToString());
        var bytes = File.ReadAllBytes(path);
        var targets = Enumerable.Range(1, 40).Select(n => (long)n * bytes.Length / 41).ToList();
        var whole = new LocalFilePart(path, bytes.Length) { Format = InputFormat.JsonLines };

        var found = new JsonLinesFormat(s_settings).FindCuts(whole, 4096, targets, TestContext.Current.CancellationToken)!;

        Assert.Equal(0, found.HeaderBytes);
        Assert.Equal(targets.Count, found.Cuts.Count);
        for (var i = 0; i < found.Cuts.Count; i++)
        {
            var cut = found.Cuts[i];
            Assert.True(cut.Offset >= targets[i], $"cut {i} at {cut.Offset} is before its target {targets[i]}");
            Assert.Equal((byte)'\n', bytes[cut.Offset - 1]);
            Assert.StartsWith(string.Create(CultureInfo.InvariantCulture, $"{{\"id\":{cut.RecordsBefore + 1},"), Encoding.UTF8.GetString(bytes, (int)cut.Offset, 14), StringComparison.Ordinal);
        }

        var starts = new[] { 0L }.Concat(found.Cuts.Select(cut => cut.Offset)).ToList();
        var ids = new List<long>();
        for (var i = 0; i < starts.Count; i++)
        {
            var end = i + 1 < starts.Count ? starts[i + 1] : bytes.Length;
            var range = new RangePart(whole, found.HeaderBytes, starts[i], end) { Format = InputFormat.JsonLines };
            using var reader = JsonLinesReader.Open(range.Open(4096), s_settings, ownsStream: true);
            ids.AddRange(reader.ReadAll(new IdOf(), 1).Where(record => record.Malformed is null).Select(record => record.Value));
        }

        Assert.Equal(Enumerable.Range(1, 3_000).Select(i => (long)i), ids);
    }
}
