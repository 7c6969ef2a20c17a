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
    private static readonly string[] s_reserved = RejectsFile.ReservedColumns;

    private readonly string _folder = Directory.CreateTempSubdirectory("rejects-").FullName;
    private readonly LoadStatistics _statistics = new(new LoaderMetrics(new TestMeterFactory()), TimeProvider.System);

    private string PathOf(string name) => Path.Combine(_folder, name);

    private RejectSink Sink(string? path, RejectRows? rows = null, long maxRejects = 1_000, long? keepUpToLine = null, Redaction? redaction = null) =>
        new(path, maxRejects, _statistics, NullLogger<RejectSink>.Instance, redaction ?? Redaction.Rule, rows ?? Rows(["id", "text", "formula"]), keepUpToLine);

    private static RejectRows Rows(string[] header, char separator = ',', InputLineMap? lines = null, string input = "in.csv") =>
        new(header, separator, lines ?? new InputLineMap(), input);

    [Fact]
    public async Task A_reject_is_the_inputs_columns_with_its_fields_as_read_then_the_reason_and_where_it_was_read()
    {
        var path = PathOf("rejects.csv");
        const string Record = "7,\"a, \"\"quoted\"\"\nsecond line\",=cmd()";
        using (var sink = Sink(path))
        {
            sink.Reject(new RowOrigin(6, 9), "column 'n': 'x' is not an Int32", Record);
            await sink.FlushAsync(TestContext.Current.CancellationToken);
        }

        var rows = ReadCsv(path);
        Assert.Equal(["id", "text", "formula", .. s_reserved], rows[0]);
        // no formula escaping: evidence as it was, and loaded as it is once fixed
        Assert.Equal(["7", "a, \"quoted\"\nsecond line", "=cmd()", "column 'n': 'x' is not an Int32", "9", "in.csv", "9", "", "9"], rows[1]);
        Assert.Equal(2, rows.Count); // the line break inside the field stays inside one record
    }

    [Theory]
    [InlineData("7,\"never closed")]
    [InlineData("7,too,many,fields")]
    public async Task A_record_that_cannot_be_split_into_the_inputs_fields_is_kept_as_its_text_with_the_fields_empty(string record)
    {
        var path = PathOf("unsplit.csv");
        using (var sink = Sink(path))
        {
            sink.RejectUnsplit(new RowOrigin(1, 2), "malformed", record);
            sink.Reject(new RowOrigin(2, 3), "whole, yet not the input's fields", record); // a record read whole is split only when it fits
            await sink.FlushAsync(TestContext.Current.CancellationToken);
        }

        var rows = ReadCsv(path);
        Assert.Equal(["", "", "", "malformed", "2", "in.csv", "2", record, "2"], rows[1]);
        Assert.Equal(["", "", "", "whole, yet not the input's fields", "3", "in.csv", "3", record, "3"], rows[2]);
    }

    [Fact]
    public async Task A_record_that_splits_but_was_rejected_unsplit_is_still_kept_as_its_text()
    {
        // Bytes that are not text: the mapper rejects the record unsplit, so the replacement characters are never loaded as values.
        var path = PathOf("bytes.csv");
        using (var sink = Sink(path))
        {
            sink.RejectUnsplit(new RowOrigin(1, 2), "column 'text' holds bytes that are not valid UTF-8", "1,caf\uFFFD,x");
            await sink.FlushAsync(TestContext.Current.CancellationToken);
        }

        Assert.Equal(["", "", "", "column 'text' holds bytes that are not valid UTF-8", "2", "in.csv", "2", "1,caf\uFFFD,x", "2"], ReadCsv(path)[1]);
    }

    [Fact]
    public async Task The_file_is_written_with_the_inputs_delimiter()
    {
        var path = PathOf("semicolon.csv");
        using (var sink = Sink(path, Rows(["id", "amount"], ';')))
        {
            sink.Reject(new RowOrigin(1, 2), "column 'amount': '1,5x' is not a valid Double", "1;\"1,5x\"");
            await sink.FlushAsync(TestContext.Current.CancellationToken);
        }

        var rows = ReadCsv(path, ';');
        Assert.Equal(["id", "amount", .. s_reserved], rows[0]);
        Assert.Equal(["1", "1,5x", "column 'amount': '1,5x' is not a valid Double", "2", "in.csv", "2", "", "2"], rows[1]);
    }

    [Fact]
    public async Task A_reason_that_quotes_a_secret_is_written_redacted_and_the_record_as_it_stood()
    {
        var path = PathOf("secret.csv");
        using (var sink = Sink(path, Rows(["id", "url"]), redaction: new Redaction(["a2V5LXF1b3RlZA=="])))
        {
            sink.Reject(new RowOrigin(1, 2), "refused by the service: key a2V5LXF1b3RlZA== at https://acct.table.core.windows.net/t?sv=1&sig=c2ln", "9,https://example.com/?token=in-the-input");
            await sink.FlushAsync(TestContext.Current.CancellationToken);
        }

        var rows = ReadCsv(path);
        Assert.Equal(["9", "https://example.com/?token=in-the-input", "refused by the service: key (removed) at https://acct.table.core.windows.net/t?sv=(removed)&sig=(removed)"], rows[1][..3]);
    }

    [Fact]
    public void Each_reject_counts_one_row_and_the_lines_its_record_spans()
    {
        using var sink = Sink(path: null);

        sink.Reject(new RowOrigin(1, 2), "one line", "a,b\r\n");
        sink.Reject(new RowOrigin(2, 3), "three lines", "a,\"x\r\ny\nz\"");
        sink.RejectUnsplit(new RowOrigin(3, 6), "a lone CR counts as a break", "a,\"x\ry\"");

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
            first.Reject(new RowOrigin(1, 5), "early", "1,e,");
            first.Reject(new RowOrigin(2, 50), "at the checkpoint", "2,c,");
            first.RejectUnsplit(new RowOrigin(3, 51), "after it", "3,\"l");
            await first.FlushAsync(TestContext.Current.CancellationToken);
        }

        using (var resumed = Sink(path, keepUpToLine: 50))
        {
            resumed.RejectUnsplit(new RowOrigin(3, 51), "after it", "3,\"l"); // read again by the resumed run
            await resumed.FlushAsync(TestContext.Current.CancellationToken);
        }

        var rows = ReadCsv(path);
        Assert.Equal(["id", "text", "formula", .. s_reserved], rows[0]);
        Assert.Equal([["1", "e", "", "early"], ["2", "c", "", "at the checkpoint"], ["", "", "", "after it"]], rows.Skip(1).Select(row => row[..4])); // each once, fields kept
    }

    [Fact]
    public async Task A_resumed_replay_keeps_the_earlier_rejects_by_their_line_in_its_own_input_not_the_line_they_were_first_read_on()
    {
        string[] header = ["id", "text", .. s_reserved];
        var path = PathOf("replay-resumed.csv");
        using (var first = Sink(path, Rows(header, input: "rejects.csv")))
        {
            first.Reject(new RowOrigin(1, 2), "again", "1,a,old,900,in.csv,900,,900");
            first.Reject(new RowOrigin(2, 3), "again", "2,b,old,5,in.csv,5,,5");
            await first.FlushAsync(TestContext.Current.CancellationToken);
        }

        using (var resumed = Sink(path, Rows(header, input: "rejects.csv"), keepUpToLine: 2))
        {
            resumed.Reject(new RowOrigin(2, 3), "again", "2,b,old,5,in.csv,5,,5");
            await resumed.FlushAsync(TestContext.Current.CancellationToken);
        }

        Assert.Equal([["1", "900", "2"], ["2", "5", "3"]], ReadCsv(path).Skip(1).Select(row => new[] { row[0], row[3], row[7] }));
    }

    [Fact]
    public async Task A_load_resumed_over_a_rejects_file_of_the_earlier_format_keeps_its_rows_as_their_text()
    {
        var path = PathOf("earlier-format.csv");
        await File.WriteAllTextAsync(path, "line,reason,record\n5,early,\"1,e,\"\n60,after it,\"3,l,\"\n", TestContext.Current.CancellationToken);

        using (var resumed = Sink(path, keepUpToLine: 50))
        {
            await resumed.FlushAsync(TestContext.Current.CancellationToken);
        }

        var rows = ReadCsv(path);
        Assert.Equal(["id", "text", "formula", .. s_reserved], rows[0]);
        Assert.Equal(["", "", "", "early", "5", "", "", "1,e,", "5"], Assert.Single(rows.Skip(1)));
    }

    [Fact]
    public async Task For_an_input_of_several_files_a_reject_names_its_file_and_its_line_there()
    {
        var path = PathOf("parts.csv");
        var map = new InputLineMap { HasSeveralParts = true };
        map.PartStarts("a.csv", firstLine: 1, ownLine: 1);
        map.PartStarts("b.csv", firstLine: 11, ownLine: 2); // b's header is left out: its line 2 is combined line 11
        using (var sink = Sink(path, Rows(["v"], lines: map, input: "https://acct.blob.core.windows.net/in/")))
        {
            sink.Reject(new RowOrigin(1, 4), "in a", "x");
            sink.Reject(new RowOrigin(2, 13), "in b", "y");
            await sink.FlushAsync(TestContext.Current.CancellationToken);
        }

        var rows = ReadCsv(path);
        Assert.Equal(["v", .. s_reserved], rows[0]);
        Assert.Equal(["x", "in a", "4", "a.csv", "4", "", "4"], rows[1]);
        Assert.Equal(["y", "in b", "13", "b.csv", "4", "", "13"], rows[2]);
    }

    [Fact]
    public async Task A_rejects_file_read_back_rejected_again_keeps_where_each_row_was_first_read_and_its_kept_text()
    {
        // The input is a rejects file, its own columns moved about as a spreadsheet may leave them.
        string[] header = ["loader_reject_line", "id", "loader_reject_reason", "text", "loader_reject_file", "loader_reject_file_line", "loader_reject_record", "loader_reject_input_line"];
        var path = PathOf("again.csv");
        using (var sink = Sink(path, Rows(header, input: "rejects.csv")))
        {
            sink.Reject(new RowOrigin(1, 2), "still bad", "4711,1,first reason,x,part-7.csv,12,,4711");
            sink.Reject(new RowOrigin(2, 3), "kept as text", "88,,could not split,,in.csv,88,\"2,\"\"broken\",88");
            sink.Reject(new RowOrigin(3, 4), "added by hand", "abc,3,,y,,,,"); // no line it came from: this input's
            sink.RejectUnsplit(new RowOrigin(4, 5), "broken in the spreadsheet", "5,\"x");
            await sink.FlushAsync(TestContext.Current.CancellationToken);
        }

        var rows = ReadCsv(path);
        Assert.Equal(["id", "text", .. s_reserved], rows[0]); // the reserved columns once, at the end
        Assert.Equal(["1", "x", "still bad", "4711", "part-7.csv", "12", "", "2"], rows[1]);
        Assert.Equal(["", "", "kept as text", "88", "in.csv", "88", "2,\"broken", "3"], rows[2]);
        Assert.Equal(["3", "y", "added by hand", "4", "rejects.csv", "4", "", "4"], rows[3]);
        Assert.Equal(["", "", "broken in the spreadsheet", "5", "rejects.csv", "5", "5,\"x", "5"], rows[4]);

        // The report names the line a row was first read on, and its line here when that differs.
        var examples = _statistics.Rejects.Summary().SelectMany(reason => reason.Examples).OrderBy(example => example.InputLine ?? example.Line).ToList();
        Assert.Equal([(4711L, 2L), (88L, 3L), (4L, null), (5L, null)], examples.Select(example => (example.Line, example.InputLine)));
    }

    /// <summary>Reads the rejects file with a parser of its own (RFC 4180), not the writer's library.</summary>
    private static List<string[]> ReadCsv(string path, char separator = ',')
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
            else if (c == separator)
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
