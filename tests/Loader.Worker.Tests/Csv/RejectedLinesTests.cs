using System.Text;
using Loader.Worker.Csv;

namespace Loader.Worker.Tests.Csv;

public sealed class RejectedLinesTests
{
    private static Rejection Rejection(RejectReason reason, long firstLine = 3, long lastLine = 3, long quoteLine = 3, long line = 9) =>
        new(0, 0, 0, firstLine, lastLine, 1, EndsMidLine: false, reason, quoteLine, line);

    [Theory]
    [InlineData(nameof(RejectReason.QuoteNeverCloses), 3, "malformed quoting: a quote opened on line 3 never closes before the end of the input; the record up to that line is rejected and reading goes on after it")]
    [InlineData(nameof(RejectReason.QuoteOpenPastLines), 3, "malformed quoting: a quote opened on line 3 does not close within 1,000 lines (Loader:Csv:MaxLinesInQuotes); the record up to that line is rejected and reading goes on after it")]
    [InlineData(nameof(RejectReason.QuoteOpenPastBytes), 3, "malformed quoting: a quote opened on line 3 does not close within 2 MiB (Loader:Csv:MaxRecordBytes); the record up to that line is rejected and reading goes on after it")]
    [InlineData(nameof(RejectReason.QuoteClosedByText), 3, "malformed quoting: a quote opened on line 3 is closed only on line 9, by a quote followed by text; the record up to that line is rejected and reading goes on after it")]
    [InlineData(nameof(RejectReason.RecordTooLong), 3, "line 3 is longer than 2 MiB (Loader:Csv:MaxRecordBytes), more than any entity can hold; its first 4,096 bytes are kept here")]
    [InlineData(nameof(RejectReason.LineTooLong), 5, "the record on lines 3 to 5 is longer than 2 MiB (Loader:Csv:MaxRecordBytes), more than any entity can hold; its first 4,096 bytes are kept here")]
    public void Each_reason_is_worded_with_its_lines_and_the_setting_that_bounds_it(string reason, long lastLine, string expected)
    {
        var lines = new RejectedLines(1_000, 2 * 1024 * 1024);

        lines.Add(Rejection(Enum.Parse<RejectReason>(reason), lastLine: lastLine), "3,\"x\n"u8);

        Assert.True(lines.TryTake(3, out var span));
        Assert.Equal(new RejectedSpan(3, lastLine, reason == nameof(RejectReason.LineTooLong) ? "3,\"x\n…" : "3,\"x\n", expected), span);
    }

    [Fact]
    public void A_size_that_is_not_whole_mebibytes_is_said_in_bytes()
    {
        var lines = new RejectedLines(100, 1_500);

        lines.Add(Rejection(RejectReason.RecordTooLong), "x"u8);

        Assert.True(lines.TryTake(3, out var span));
        Assert.StartsWith("line 3 is longer than 1,500 bytes (Loader:Csv:MaxRecordBytes)", span.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void A_record_too_long_keeps_its_first_bytes_and_says_it_was_cut()
    {
        var lines = new RejectedLines(100, 1_000);
        var text = Encoding.ASCII.GetBytes(new string('a', RejectedLines.KeptTextBytes) + "bcd");

        lines.Add(Rejection(RejectReason.RecordTooLong), text);

        Assert.True(lines.TryTake(3, out var span));
        Assert.Equal(new string('a', RejectedLines.KeptTextBytes) + "…", span.Text);
    }

    [Fact]
    public void A_dropped_line_keeps_its_first_bytes_across_the_drops_and_the_next_one_starts_afresh()
    {
        var lines = new RejectedLines(100, 1_000);
        lines.Dropped(Encoding.ASCII.GetBytes(new string('a', 3_000)));
        lines.Dropped(Encoding.ASCII.GetBytes(new string('b', 3_000)));
        lines.Add(Rejection(RejectReason.LineTooLong), "ccc"u8);
        lines.Add(Rejection(RejectReason.LineTooLong, firstLine: 7, lastLine: 7), "ddd"u8);

        Assert.True(lines.TryTake(3, out var first));
        Assert.Equal(new string('a', 3_000) + new string('b', RejectedLines.KeptTextBytes - 3_000) + "…", first.Text);
        Assert.True(lines.TryTake(7, out var second));
        Assert.Equal("ddd…", second.Text);
    }

    [Fact]
    public void Each_rejection_is_taken_once()
    {
        var lines = new RejectedLines(100, 1_000);
        lines.Add(Rejection(RejectReason.QuoteNeverCloses), "x"u8);

        Assert.False(lines.TryTake(2, out _));
        Assert.True(lines.TryTake(3, out _));
        Assert.False(lines.TryTake(3, out _));
    }
}
