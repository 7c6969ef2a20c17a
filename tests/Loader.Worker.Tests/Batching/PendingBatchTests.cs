using Loader.Abstractions;
using Loader.Worker.Batching;

namespace Loader.Worker.Tests.Batching;

/// <summary>A partial batch's rows, keys and records as it grows to its capacity and past it.</summary>
public sealed class PendingBatchTests
{
    private static LoadEntity Row(int record) => new("p", $"r{record}", [], new RowOrigin(record, record + 1));

    [Theory]
    [InlineData(100, 100)]
    [InlineData(100, 33)]
    [InlineData(5, 12)]
    [InlineData(1, 3)]
    public void Every_row_added_is_found_by_its_key_and_its_record_kept_in_order(int capacity, int rows)
    {
        var batch = new PendingBatch("p", RowMeasure.KeyHash("p"), firstRecord: 1, capacity, openedAt: 0);

        for (var record = 1; record <= rows; record++)
        {
            var row = Row(record);
            batch.Add(row, RowMeasure.Of(row));
        }

        Assert.Equal(rows, batch.Entities.Count);
        Assert.Equal(Enumerable.Range(1, rows).Select(record => (long)record), batch.Records.ToArray());
        for (var record = 1; record <= rows; record++)
        {
            Assert.Equal(record - 1, batch.IndexOf($"r{record}", RowMeasure.KeyHash($"r{record}")));
        }

        Assert.Equal(-1, batch.IndexOf("absent", RowMeasure.KeyHash("absent")));
    }
}
