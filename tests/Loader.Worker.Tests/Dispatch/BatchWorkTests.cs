using Loader.Abstractions;
using Loader.Worker.Batching;
using Loader.Worker.Dispatch;

namespace Loader.Worker.Tests.Dispatch;

public sealed class BatchWorkTests
{
    private static LoadEntity Row(long record) => new("p", $"r{record}", [EntityProperty.FromInt32("n", (int)record)], new RowOrigin(record, record + 1), 100);

    [Fact]
    public void The_highest_record_is_of_the_rows_still_to_send_once_an_answer_settled_some()
    {
        var ready = new ReadyBatch(new EntityBatch("p", [Row(3), Row(9), Row(5)], WriteMode.Upsert), 1, 3, KnownRowRecords: new long[] { 3, 9, 5 });
        var work = new BatchWork(ready);
        Assert.Equal(9, work.HighestRecord);

        work.Settle(new BatchOutcome { Status = BatchStatus.Transient, AppliedOperations = [1] });

        Assert.Equal(2, work.Remaining);
        Assert.Equal(5, work.HighestRecord);
    }

    [Fact]
    public void A_batch_made_without_its_records_finds_them_from_its_rows()
    {
        var ready = new ReadyBatch(new EntityBatch("p", [Row(3), Row(9), Row(5)], WriteMode.Upsert), 1, 3);

        Assert.Equal([3L, 9, 5], ready.RowRecords.ToArray());
        Assert.Equal(9, new BatchWork(ready).HighestRecord);
    }
}
