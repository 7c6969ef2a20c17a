using Loader.Abstractions;
using Loader.Worker.Inputs;
using Loader.Worker.Rejects;
using Loader.Worker.Reporting;
using Loader.Worker.Security;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.Logging.Abstractions;

namespace Loader.Worker.Tests.Rejects;

/// <summary>The rejects file's rows, the counts they add to, the reject limit and what a resumed load keeps.</summary>
public sealed class RejectSinkTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("rejects-").FullName;
    private readonly LoadStatistics _statistics = new(new LoaderMetrics(new TestMeterFactory()), TimeProvider.System);

    private string PathOf(string name) => Path.Combine(_folder, name);

    private RejectSink Sink(string? path, long maxRejects = 1_000, long? keepUpToLine = null, InputLineMap? lines = null, Redaction? redaction = null) =>
        new(path, maxRejects, _statistics, NullLogger<RejectSink>.Instance, redaction ?? Redaction.Rule, keepUpToLine, lines);

    [Fact]
    public async Task A_reject_is_its_line_its_reason_and_its_record_exactly_as_read()
    {
        var path = PathOf("rejects.csv");
        const string Record = "7,\"a, \"\"quoted\"\"\nsecond line\",=cmd()";
        using (var sink = Sink(path))
        {
            sink.Reject(new RowOrigin(6, 9), "column 'n': 'x' is not an Int32", Record);
            await sink.FlushAsync(TestContext.Current.CancellationToken);
        }

        var rows = ReadCsv(path);
        Assert.Equal(["line", "reason", "record"], rows[0]);
        Assert.Equal(["9", "column 'n': 'x' is not an Int32", Record], rows[1]); // no formula escaping: evidence as it was
        Assert.Equal(2, rows.Count);
    }

    [Fact]
    public async Task A_reason_that_quotes_a_secret_is_written_redacted_and_the_record_as_it_stood()
    {
        var path = PathOf("secret.csv");
        const string Record = "9,https://example.com/?token=in-the-input";
        using (var sink = Sink(path, redaction: new Redaction(["a2V5LXF1b3RlZA=="])))
        {
            sink.Reject(new RowOrigin(1, 2), "refused by the service: key a2V5LXF1b3RlZA== at https://acct.table.core.windows.net/t?sv=1&sig=c2ln", Record);
            await sink.FlushAsync(TestContext.Current.CancellationToken);
        }

        var rows = ReadCsv(path);
        Assert.Equal(["2", "refused by the service: key (removed) at https://acct.table.core.windows.net/t?sv=(removed)&sig=(removed)", Record], rows[1]);
    }

    [Fact]
    public void Each_reject_counts_one_row_and_the_lines_its_record_spans()
    {
        using var sink = Sink(path: null);

        sink.Reject(new RowOrigin(1, 2), "one line", "a,b\r\n");
        sink.Reject(new RowOrigin(2, 3), "three lines", "a,\"x\r\ny\nz\"");
        sink.Reject(new RowOrigin(3, 6), "a lone CR counts as a break", "a,\"x\ry\"");

        var counts = _statistics.Snapshot();
        Assert.Equal(3, counts.RowsRejected);
        Assert.Equal(1 + 3 + 2, counts.LinesRejected);
        Assert.Equal(3, sink.Count);
    }

    [Fact]
    public void The_limit_fires_on_the_first_reject_past_it_not_at_it()
    {
        using var sink = Sink(path: null, maxRejects: 2);

        sink.Reject(new RowOrigin(1, 2), "r", "x");
        sink.Reject(new RowOrigin(2, 3), "r", "x");
        Assert.False(sink.LimitExceeded.IsCancellationRequested);

        sink.Reject(new RowOrigin(3, 4), "r", "x");
        Assert.True(sink.LimitExceeded.IsCancellationRequested);
    }

    [Fact]
    public async Task A_resumed_load_keeps_the_earlier_rejects_up_to_its_line_and_drops_those_it_meets_again()
    {
        var path = PathOf("resumed.csv");
        using (var first = Sink(path))
        {
            first.Reject(new RowOrigin(1, 5), "early", "e");
            first.Reject(new RowOrigin(2, 50), "at the checkpoint", "c");
            first.Reject(new RowOrigin(3, 51), "after it", "l");
            await first.FlushAsync(TestContext.Current.CancellationToken);
        }

        using (var resumed = Sink(path, keepUpToLine: 50))
        {
            resumed.Reject(new RowOrigin(3, 51), "after it", "l"); // read again by the resumed run
            await resumed.FlushAsync(TestContext.Current.CancellationToken);
        }

        var lines = ReadCsv(path).Skip(1).Select(row => row[0]).ToList();
        Assert.Equal(["5", "50", "51"], lines); // each once
    }

    [Fact]
    public async Task For_an_input_of_several_files_a_reject_names_its_file_and_its_line_there()
    {
        var path = PathOf("parts.csv");
        var map = new InputLineMap { HasSeveralParts = true };
        map.PartStarts("a.csv", firstLine: 1, ownLine: 1);
        map.PartStarts("b.csv", firstLine: 11, ownLine: 2); // b's header is left out: its line 2 is combined line 11
        using (var sink = Sink(path, lines: map))
        {
            sink.Reject(new RowOrigin(1, 4), "in a", "x");
            sink.Reject(new RowOrigin(2, 13), "in b", "y");
            await sink.FlushAsync(TestContext.Current.CancellationToken);
        }

        var rows = ReadCsv(path);
        Assert.Equal(["line", "reason", "record", "file", "fileLine"], rows[0]);
        Assert.Equal(["4", "in a", "x", "a.csv", "4"], rows[1]);
        Assert.Equal(["13", "in b", "y", "b.csv", "4"], rows[2]);
    }

    /// <summary>Reads the rejects file with a parser of its own (RFC 4180), not the writer's library.</summary>
    private static List<string[]> ReadCsv(string path)
    {
        var text = File.ReadAllText(path);
        var rows = new List<string[]>();
        var fields = new List<string>();
        var field = new System.Text.StringBuilder();
        var quoted = false;
        for (var i = 0; i < text.Length; i++)
        {
            var c = text[i];
            if (quoted)
            {
                if (c == '"' && i + 1 < text.Length && text[i + 1] == '"')
                {
                    field.Append('"');
                    i++;
                }
                else if (c == '"')
                {
                    quoted = false;
                }
                else
                {
                    field.Append(c);
                }
            }
            else if (c == '"')
            {
                quoted = true;
            }
            else if (c == ',')
            {
                fields.Add(field.ToString());
                field.Clear();
            }
            else if (c == '\n')
            {
                fields.Add(field.ToString());
                field.Clear();
                rows.Add([.. fields]);
                fields.Clear();
            }
            else
            {
                field.Append(c);
            }
        }

        return rows;
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);
}
