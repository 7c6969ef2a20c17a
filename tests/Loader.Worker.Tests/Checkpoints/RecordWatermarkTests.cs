using Loader.Worker.Checkpoints;

namespace Loader.Worker.Tests.Checkpoints;

public sealed class RecordWatermarkTests
{
    [Fact]
    public void Is_the_lowest_record_still_pending_whatever_order_batches_finish_in()
    {
        var watermark = new RecordWatermark();
        watermark.Open(1);
        watermark.Open(3);
        watermark.Open(7);
        watermark.Batched(10);

        Assert.Equal(1, watermark.Current);
        watermark.Close(3);
        Assert.Equal(1, watermark.Current);
        watermark.Close(1);
        Assert.Equal(7, watermark.Current);
        watermark.Close(7);
        Assert.Equal(11, watermark.Current);
    }

    [Fact]
    public void Records_not_yet_past_the_batch_stage_hold_it_back()
    {
        var watermark = new RecordWatermark();
        watermark.Batched(5);

        Assert.Equal(6, watermark.Current);
    }

    [Fact]
    public void Two_batches_may_share_a_first_record_and_both_must_close()
    {
        var watermark = new RecordWatermark();
        watermark.Open(4);
        watermark.Open(4);
        watermark.Batched(9);

        watermark.Close(4);
        Assert.Equal(4, watermark.Current);
        watermark.Close(4);
        Assert.Equal(10, watermark.Current);
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
}
