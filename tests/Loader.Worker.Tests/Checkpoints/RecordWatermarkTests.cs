using Loader.Worker.Checkpoints;

namespace Loader.Worker.Tests.Checkpoints;

public sealed class RecordWatermarkTests
{
    [Fact]
    public void Is_the_lowest_record_still_pending_whatever_order_batches_finish_in()
    {
        var watermark = new RecordWatermark();
        watermark.Pending([1, 2, 3, 7, 8]);
        watermark.Batched(10, 11);

        Assert.Equal(1, watermark.Current);
        watermark.Settled([3]);
        Assert.Equal(1, watermark.Current);
        watermark.Settled([1, 2]);
        Assert.Equal(7, watermark.Current);
        watermark.Settled([7, 8]);
        Assert.Equal(11, watermark.Current);
    }

    [Fact]
    public void Records_not_yet_past_the_batch_stage_hold_it_back()
    {
        var watermark = new RecordWatermark();
        watermark.Batched(5, 5);

        Assert.Equal(6, watermark.Current);
    }

    [Fact]
    public void A_snapshot_names_the_records_still_pending_between_the_watermark_and_what_was_read()
    {
        // A hot partition's batch holds the watermark at 3 while the other rows read after it settled.
        var watermark = new RecordWatermark();
        watermark.Pending([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        watermark.Batched(12, 14);
        watermark.Settled([1, 2, 4, 5, 6, 8, 10]);

        var snapshot = watermark.Snapshot();

        Assert.Equal((3L, 12L, 14L, 3L), (snapshot.NextRecord, snapshot.ReadUpTo, snapshot.ReadUpToLine, snapshot.PendingRows));
        Assert.Equal([[3L, 3L], [7L, 7L], [9L, 9L]], snapshot.Pending);
    }

    [Fact]
    public void The_window_slides_and_grows_over_a_long_load_with_a_row_that_never_settles()
    {
        var watermark = new RecordWatermark();
        watermark.Pending([5]); // a row whose batch failed: it stays pending for the rest of the load
        for (long start = 6; start < 1_000_000; start += 500)
        {
            var records = Enumerable.Range(0, 500).Select(i => start + i).ToArray();
            watermark.Pending(records);
            watermark.Batched(start + 499, start + 499);
            watermark.Settled(records);
        }

        var snapshot = watermark.Snapshot();
        Assert.Equal(5, snapshot.NextRecord);
        Assert.Equal([[5L, 5L]], snapshot.Pending);
        watermark.Settled([5]);
        Assert.Equal(1_000_006, watermark.Current);
    }

    [Fact]
    public void A_resumed_load_starts_after_the_records_the_earlier_run_settled()
    {
        var watermark = new RecordWatermark(resumedAfter: 1_000);

        Assert.Equal(1_001, watermark.Current);
        watermark.Sent(1_050);
        watermark.Sent(1_020);
        Assert.Equal(1_050, watermark.HighestSent);
    }

    [Fact]
    public void A_resume_window_settles_what_the_earlier_run_read_except_its_pending_records()
    {
        var window = new ResumeWindow(ReadUpTo: 20, ReadUpToLine: 25, Pending: [[3, 3], [7, 9], [15, 15]]);

        Assert.Equal(
            [1, 2, 4, 5, 6, 10, 11, 12, 13, 14, 16, 17, 18, 19, 20],
            Enumerable.Range(1, 25).Where(record => window.Settled(record)));
        Assert.True(window.SettledMalformed(19));
        Assert.False(window.SettledMalformed(20));
    }
}
