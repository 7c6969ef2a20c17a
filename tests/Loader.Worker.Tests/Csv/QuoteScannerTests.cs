using System.Text;
using Loader.Worker.Csv;

namespace Loader.Worker.Tests.Csv;

/// <summary>The quote and line state machine on bytes held in memory, without a stream.</summary>
public sealed class QuoteScannerTests
{
    private static QuoteScanner Scanner(int maxLines = 100, int maxBytes = 1_000) => new(',', maxLines, maxBytes);

    /// <summary>Steps through <paramref name="text"/>, all of it held, to the first step that is not a record start; returns the record starts met.</summary>
    private static (List<long> Starts, ScanStep Last) Scan(QuoteScanner scanner, string text, bool ended = true)
    {
        var bytes = Encoding.UTF8.GetBytes(text);
        var starts = new List<long>();
        ScanStep step;
        while ((step = scanner.Step(bytes, 0, ended)) == ScanStep.RecordStart)
        {
            starts.Add(scanner.RecordStart);
        }

        return (starts, step);
    }

    [Fact]
    public void A_record_starts_after_every_line_break_outside_quotes_and_after_none_inside()
    {
        const string text = "a,b\r\n1,\"x\ny\"\r2,\"\"\"q\"\"\"\n3,z";
        var scanner = Scanner();

        var (starts, last) = Scan(scanner, text);

        Assert.Equal([text.IndexOf('1'), text.IndexOf('2'), text.IndexOf('3')], starts);
        Assert.Equal(ScanStep.More, last);
        Assert.Equal(text.Length, scanner.Position);
        Assert.Equal(5, scanner.Line); // CR LF, the quoted LF, CR, LF: four line breaks
        Assert.Equal(text.IndexOf('3'), scanner.LineStart);
        Assert.False(scanner.Finish(Encoding.UTF8.GetBytes(text), 0));
    }

    [Fact]
    public void A_quote_opens_a_field_only_as_its_first_character()
    {
        const string text = "a,b\n1,5\" tall\n2,x\"\n";

        var (starts, _) = Scan(Scanner(), text);

        Assert.Equal([4, text.IndexOf('2'), text.Length], starts);
    }

    [Fact]
    public void A_carriage_return_at_the_end_of_what_is_held_waits_for_the_next_byte_unless_the_input_ended()
    {
        var scanner = Scanner();

        Assert.Equal(ScanStep.More, scanner.Step("a,b\r"u8, 0, ended: false));
        Assert.Equal(0, scanner.Position); // nothing taken: the line is scanned again with what follows
        Assert.Equal(ScanStep.RecordStart, scanner.Step("a,b\r\nc"u8, 0, ended: false));
        Assert.Equal((5L, 2L), (scanner.RecordStart, scanner.Line)); // CR LF is one line break

        var ended = Scanner();
        Assert.Equal(ScanStep.RecordStart, ended.Step("a,b\r"u8, 0, ended: true));
        Assert.Equal(4, ended.RecordStart);
    }

    [Fact]
    public void A_quote_at_the_end_of_what_is_held_inside_a_field_waits_for_the_next_byte()
    {
        var scanner = Scanner();

        Assert.Equal(ScanStep.More, scanner.Step("1,\"a"u8, 0, ended: false));
        Assert.Equal(ScanStep.More, scanner.Step("1,\"a\""u8, 0, ended: false));
        Assert.Equal(4, scanner.Position);

        // A doubled quote: the field stays open across the line break, which starts no record.
        Assert.Equal(ScanStep.More, scanner.Step("1,\"a\"\"\nb"u8, 0, ended: false));
        Assert.Equal(2, scanner.Line);
        Assert.Equal(ScanStep.RecordStart, scanner.Step("1,\"a\"\"\nb\"\n"u8, 0, ended: false));
        Assert.Equal(10, scanner.RecordStart);
    }

    [Fact]
    public void Bytes_held_from_a_later_origin_are_scanned_at_their_positions()
    {
        var scanner = Scanner();
        Assert.Equal(ScanStep.RecordStart, scanner.Step("a,b\n"u8, 0, ended: false));

        // The first four bytes have gone: what is held starts at the record.
        Assert.Equal(ScanStep.RecordStart, scanner.Step("1,\"x\"\n"u8, 4, ended: false));

        Assert.Equal((10L, 3L), (scanner.RecordStart, scanner.Line));
    }

    [Fact]
    public void A_quote_closed_on_a_later_line_and_followed_by_text_rejects_the_record_up_to_the_line_it_opened_on()
    {
        const string text = "p,1\np,2,\"open\np,3\np,4,\"x\"y\n";
        var scanner = Scanner();

        var (starts, last) = Scan(scanner, text);

        Assert.Equal([4], starts);
        Assert.Equal(ScanStep.Rejected, last);
        var end = text.IndexOf("p,3", StringComparison.Ordinal);
        Assert.Equal(new Rejection(4, end, end, 2, 2, 1, EndsMidLine: false, RejectReason.QuoteClosedByText, QuoteLine: 2, Line: 4), scanner.Rejection);
    }

    [Fact]
    public void A_quote_open_past_the_line_bound_rejects_the_record_up_to_its_line_and_a_restart_scans_the_lines_after_it_again()
    {
        const string text = "h\n\"a\nb\",\"stray\nc\nd\nf\n";
        var scanner = Scanner(maxLines: 2);

        var (_, last) = Scan(scanner, text);

        Assert.Equal(ScanStep.Rejected, last);
        var end = text.IndexOf('c');
        Assert.Equal(new Rejection(2, end, end, 2, 3, 2, EndsMidLine: false, RejectReason.QuoteOpenPastLines, QuoteLine: 3, Line: 6), scanner.Rejection);

        // As if the rejected bytes stayed where they are: the scan goes on after them, on the line after the quote's.
        scanner.Restart(end, end, 4);
        var (starts, after) = Scan(scanner, text);
        Assert.Equal([text.IndexOf('d'), text.IndexOf('f'), text.Length], starts);
        Assert.Equal(ScanStep.More, after);
    }

    [Fact]
    public void A_quote_open_past_the_byte_bound_is_rejected_at_the_line_break_that_passes_it()
    {
        const string text = "1,\"open\n22222\n33333\n";

        var scanner = Scanner(maxBytes: 12);

        Assert.Equal(ScanStep.Rejected, Scan(scanner, text).Last);
        Assert.Equal((RejectReason.QuoteOpenPastBytes, 0L, 8L, 3L), (scanner.Rejection.Reason, scanner.Rejection.Start, scanner.Rejection.End, scanner.Rejection.Line));
    }

    [Fact]
    public void A_record_of_several_lines_longer_than_the_bound_is_rejected_whole_at_its_last_line_break()
    {
        const string text = "1,\"a\nbbbbbbbb\"\n2\n";
        var scanner = Scanner(maxBytes: 12);

        Assert.Equal(ScanStep.Rejected, Scan(scanner, text).Last);
        var end = text.IndexOf('2');
        Assert.Equal(new Rejection(0, end, end, 1, 2, 2, EndsMidLine: false, RejectReason.RecordTooLong, QuoteLine: 1, Line: 3), scanner.Rejection);
    }

    [Fact]
    public void A_quote_that_never_closes_is_rejected_when_the_input_ends()
    {
        const string text = "h\n\"a\nb\",\"open";
        var scanner = Scanner();
        var bytes = Encoding.UTF8.GetBytes(text);

        Assert.Equal(ScanStep.More, Scan(scanner, text).Last);
        Assert.True(scanner.Finish(bytes, 0));

        // The input ended on the quote's line: the span has no last line break, and the input's last line is in it.
        Assert.Equal(new Rejection(2, text.Length, text.Length, 2, 3, 1, EndsMidLine: true, RejectReason.QuoteNeverCloses, QuoteLine: 3, Line: 3), scanner.Rejection);
    }

    [Fact]
    public void A_line_too_long_is_dropped_as_it_comes_and_its_line_break_rejects_the_record()
    {
        var scanner = Scanner(maxBytes: 8);
        Assert.Equal(ScanStep.RecordStart, scanner.Step("h\n"u8, 0, ended: false));

        // A record whose quoted field spans into a line too long: the record from its start goes.
        Assert.Equal(ScanStep.Drop, scanner.Step("h\n\"a\nb\",xxxxxxxxx"u8, 0, ended: false));
        Assert.Equal(2, scanner.Position);

        // The caller took out everything from there; the line goes on, and its CR waits for what follows it.
        Assert.Equal(ScanStep.Drop, scanner.Step("h\nyyyyy"u8, 0, ended: false));
        Assert.Equal(ScanStep.More, scanner.Step("h\nzz\r"u8, 0, ended: false));
        Assert.Equal(ScanStep.Rejected, scanner.Step("h\nzz\r\nnext\n"u8, 0, ended: false));

        Assert.Equal(new Rejection(2, 6, 4, 2, 3, 2, EndsMidLine: false, RejectReason.LineTooLong, QuoteLine: 2, Line: 3), scanner.Rejection);
    }

    [Fact]
    public void A_line_too_long_that_the_input_ends_in_is_rejected_when_it_ends()
    {
        var scanner = Scanner(maxBytes: 4);
        Assert.Equal(ScanStep.Drop, scanner.Step("xxxxxx"u8, 0, ended: true));
        Assert.Equal(ScanStep.More, scanner.Step([], 0, ended: true));

        Assert.True(scanner.Finish([], 0));
        Assert.Equal(new Rejection(0, 0, 0, 1, 1, 0, EndsMidLine: false, RejectReason.LineTooLong, QuoteLine: 0, Line: 1), scanner.Rejection);
    }

    [Theory]
    [InlineData("", 0)]
    [InlineData("a", 0)]
    [InlineData("a\r\nb", 1)]
    [InlineData("a\rb\nc\r\n\r", 4)]
    [InlineData("\n\n", 2)]
    public void Line_breaks_are_CR_LF_a_lone_CR_or_LF(string text, int breaks) =>
        Assert.Equal(breaks, QuoteScanner.CountLineBreaks(Encoding.UTF8.GetBytes(text)));
}
