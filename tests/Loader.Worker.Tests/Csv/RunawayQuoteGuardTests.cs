using System.Text;
using Loader.Worker.Csv;

namespace Loader.Worker.Tests.Csv;

public sealed class RunawayQuoteGuardTests
{
    private const string Marker = "-\"";

    /// <summary>Reads the input through a guard, the inner stream handing out at most <paramref name="trickle"/> bytes a read.</summary>
    private static (string Output, RunawayQuoteGuard Guard) Guarded(string input, int maxLines = 100, int maxBytes = 2 * 1024 * 1024, int trickle = int.MaxValue, int readSize = 4096)
    {
        var guard = new RunawayQuoteGuard(new TrickleStream(Encoding.UTF8.GetBytes(input), trickle), ',', maxLines, maxBytes);
        using var output = new MemoryStream();
        var buffer = new byte[readSize];
        int read;
        while ((read = guard.Read(buffer, 0, buffer.Length)) > 0)
        {
            output.Write(buffer, 0, read);
        }

        return (Encoding.UTF8.GetString(output.ToArray()), guard);
    }

    public static TheoryData<string> WellFormed =>
    [
        "a,b,c\n1,2,3\n4,5,6\n",
        "a,b,c\r\n1,2,3\r\n4,\"5\r\nfive\",6\r\n",
        "a,b,c\r1,2,3\r4,5,6",
        "a,b\n1,\"multi\nline\nfield, with \"\"quotes\"\"\"\n2,x\n",
        "a,b\n\n\n1,2\n\n",
        "a,b\n1,5\" tall\n2,\"\"\n",
        "",
    ];

    [Theory]
    [MemberData(nameof(WellFormed))]
    public void Input_without_a_runaway_quote_passes_byte_for_byte_whatever_the_read_sizes(string input)
    {
        foreach (var trickle in new[] { 1, 2, 3, 7, int.MaxValue })
        {
            var (output, guard) = Guarded(input, trickle: trickle, readSize: trickle == 1 ? 1 : 4096);

            Assert.Equal(input, output);
            Assert.Equal(Lines(input), guard.LinesRead);
        }
    }

    [Fact]
    public void A_quote_that_never_closes_costs_its_own_line_and_the_lines_after_it_are_read_as_records()
    {
        var input = "id,p,v\n1,P1,ok\n10,P1,\"oops,10\n11,P1,fine\n12,P1,also fine\n";

        var (output, guard) = Guarded(input);

        Assert.Equal("id,p,v\n1,P1,ok\n" + Marker + "\n11,P1,fine\n12,P1,also fine\n", output);
        Assert.True(guard.TryTake(3, out var rejected));
        Assert.Equal((3L, 3L, "10,P1,\"oops,10\n"), (rejected.FirstLine, rejected.LastLine, rejected.Text));
        Assert.Equal("malformed quoting: a quote opened on line 3 never closes before the end of the input; the record up to that line is rejected and reading goes on after it", rejected.Reason);
        Assert.Equal(5, guard.LinesRead);
    }

    [Fact]
    public void A_quote_still_open_after_the_line_bound_is_taken_for_a_stray_one_even_if_a_quote_closes_it_much_later()
    {
        var rows = Enumerable.Range(11, 30).Select(i => $"{i},P1,row {i}\n");
        var input = "id,p,v\n10,P1,\"oops,10\n" + string.Concat(rows) + "99,P1,\"quoted\"\n";

        var (output, guard) = Guarded(input, maxLines: 5);

        Assert.Equal("id,p,v\n" + Marker + "\n" + string.Concat(rows) + "99,P1,\"quoted\"\n", output);
        Assert.True(guard.TryTake(2, out var rejected));
        Assert.StartsWith("malformed quoting: a quote opened on line 2 does not close within 5 lines (Loader:Csv:MaxLinesInQuotes)", rejected.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void A_quote_closed_on_a_later_line_and_followed_by_text_opened_no_field()
    {
        // The next quote in the file closes the stray one, followed by text: the lines between are records of their own.
        var input = "pk,rk,v\np,1,a\np,2,\"never closed\np,3,c\np,4,d\np,5,\"quoted, fine\"\np,6,f\n";

        var (output, guard) = Guarded(input);

        Assert.Equal("pk,rk,v\np,1,a\n" + Marker + "\np,3,c\np,4,d\np,5,\"quoted, fine\"\np,6,f\n", output);
        Assert.True(guard.TryTake(3, out var rejected));
        Assert.Equal("p,2,\"never closed\n", rejected.Text);
        Assert.Contains("a quote opened on line 3 is closed only on line 6, by a quote followed by text", rejected.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void A_record_whose_earlier_field_spans_lines_is_rejected_whole_up_to_the_line_of_the_stray_quote()
    {
        var input = "a,b,c\n\"two\nlines\",\"stray\n1,2,3\n";

        var (output, guard) = Guarded(input);

        // Lines 2 and 3 are the record; line 4 is read as a record of its own.
        Assert.Equal("a,b,c\n" + Marker + "\n\n1,2,3\n", output);
        Assert.True(guard.TryTake(2, out var rejected));
        Assert.Equal((2L, 3L, "\"two\nlines\",\"stray\n"), (rejected.FirstLine, rejected.LastLine, rejected.Text));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(5)]
    [InlineData(int.MaxValue)]
    public void A_line_longer_than_any_record_may_be_is_dropped_and_kept_in_part_for_the_rejects(int trickle)
    {
        var huge = new string('x', 10_000);
        var input = $"a,b\n1,ok\n2,{huge}\r\n3,ok\n";

        var (output, guard) = Guarded(input, maxBytes: 1_000, trickle: trickle);

        Assert.Equal("a,b\n1,ok\n" + Marker + "\n3,ok\n", output);
        Assert.True(guard.TryTake(3, out var rejected));
        Assert.Equal("2," + new string('x', RejectedLines.KeptTextBytes - 2) + "…", rejected.Text);
        Assert.StartsWith("line 3 is longer than 1,000 bytes (Loader:Csv:MaxRecordBytes)", rejected.Reason, StringComparison.Ordinal);
        Assert.Equal(4, guard.LinesRead);
    }

    [Fact]
    public void A_quote_open_past_the_byte_bound_is_rejected_at_its_line()
    {
        var input = "a,b\n1,\"open\n" + string.Concat(Enumerable.Repeat("2,a fairly long line of text to fill bytes\n", 50)) + "3,ok\n";

        var (output, guard) = Guarded(input, maxBytes: 500);

        Assert.Equal("a,b\n" + Marker + "\n" + string.Concat(Enumerable.Repeat("2,a fairly long line of text to fill bytes\n", 50)) + "3,ok\n", output);
        Assert.True(guard.TryTake(2, out var rejected));
        Assert.Contains("does not close within 500 bytes (Loader:Csv:MaxRecordBytes)", rejected.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Every_record_start_is_told_with_its_offset_in_the_bytes_given_out_and_in_the_input()
    {
        const string input = "a,b\n10,\"oops,10\n11,x\r\n12,y\n";
        var starts = new List<(long Parser, long Input)>();
        var guard = new RunawayQuoteGuard(new MemoryStream(Encoding.UTF8.GetBytes(input)), ',', 100, 1_000, (parser, offset) => starts.Add((parser, offset)));
        using var output = new MemoryStream();
        guard.CopyTo(output);
        var given = Encoding.UTF8.GetString(output.ToArray());

        // The marker stands where the rejected line was: the records after it are further apart in the input than in the output.
        Assert.Equal("a,b\n" + Marker + "\n11,x\r\n12,y\n", given);
        Assert.Equal(
            [(4, 4), (given.IndexOf("11,", StringComparison.Ordinal), input.IndexOf("11,", StringComparison.Ordinal)), (given.IndexOf("12,", StringComparison.Ordinal), input.IndexOf("12,", StringComparison.Ordinal)), (given.Length, input.Length)],
            starts);
    }

    [Fact]
    public void Utf16_input_passes_through_untouched()
    {
        var bytes = Encoding.Unicode.GetPreamble().Concat(Encoding.Unicode.GetBytes("a,b\n1,\"open\n2,x\n")).ToArray();
        var guard = new RunawayQuoteGuard(new MemoryStream(bytes), ',', 1, 100);
        using var output = new MemoryStream();
        guard.CopyTo(output);

        Assert.Equal(bytes, output.ToArray());
    }

    /// <summary>
    /// Random inputs of quotes, separators, text and every kind of line break: whatever the read sizes, the guard gives
    /// the same output, every line keeps its number (as many line breaks come out as went in), and the lines read are
    /// the input's.
    /// </summary>
    [Fact]
    public void Random_inputs_come_out_the_same_whatever_the_read_sizes_with_every_line_break_kept()
    {
        var random = new Random(17);
        string[] pieces = ["\"", "\"\"", ",", "a", "text", "\n", "\r\n", "\r", "\n\n", "x\"y"];
        for (var round = 0; round < 300; round++)
        {
            var input = new StringBuilder();
            for (var i = random.Next(1, 200); i > 0; i--)
            {
                input.Append(pieces[random.Next(pieces.Length)]);
            }

            var text = input.ToString();
            var (whole, guard) = Guarded(text, maxLines: 3, maxBytes: 64);
            Assert.Equal(whole, Guarded(text, maxLines: 3, maxBytes: 64, trickle: 1, readSize: 1).Output);
            Assert.Equal(whole, Guarded(text, maxLines: 3, maxBytes: 64, trickle: 3, readSize: 5).Output);
            Assert.Equal(LineBreaks(text), LineBreaks(whole));
            Assert.Equal(Lines(text), guard.LinesRead);
        }
    }

    /// <summary>Lines as a CSV reader counts them: line breaks, and a last line without one.</summary>
    private static long Lines(string text) => LineBreaks(text) + (text.Length > 0 && text[^1] is not ('\n' or '\r') ? 1 : 0);

    /// <summary>Line breaks: CR LF, CR or LF.</summary>
    private static long LineBreaks(string text)
    {
        long breaks = 0;
        for (var i = 0; i < text.Length; i++)
        {
            if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.Length || text[i + 1] != '\n')))
            {
                breaks++;
            }
        }

        return breaks;
    }

    /// <summary>A stream that hands out at most a few bytes per read, to try every boundary.</summary>
    private sealed class TrickleStream(byte[] bytes, int most) : Stream
    {
        private int _position;

        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => bytes.Length;

        public override long Position { get => _position; set => throw new NotSupportedException(); }

        public override int Read(byte[] buffer, int offset, int count)
        {
            var n = Math.Min(Math.Min(count, most), bytes.Length - _position);
            Array.Copy(bytes, _position, buffer, offset, n);
            _position += n;
            return n;
        }

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }
}
