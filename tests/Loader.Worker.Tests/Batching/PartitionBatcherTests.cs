using Loader.Abstractions;
using Loader.Worker.Batching;
using Microsoft.Extensions.Time.Testing;

namespace Loader.Worker.Tests.Batching;

public sealed class PartitionBatcherTests
{
    private long _record;

    private LoadEntity Row(string partitionKey, string rowKey, int payloadBytes = 100, params (string Name, string Value)[] properties) =>
        new(partitionKey, rowKey, properties.Select(p => EntityProperty.FromString(p.Name, p.Value)).ToArray(), new RowOrigin(++_record, _record + 1), payloadBytes);

    private static PartitionBatcher Batcher(int maxOperations = 100, long maxPayload = 1_000_000, int maxBuffered = 10_000, WriteMode mode = WriteMode.Upsert) =>
        new(new BatchingPolicy(maxOperations, maxPayload, maxBuffered, long.MaxValue, mode), entity => new EntityInspection(entity.PayloadBytes, null));

    [Fact]
    public void A_full_batch_leaves_at_once_and_partial_ones_wait()
    {
        var batcher = Batcher(maxOperations: 3);
        var ready = new List<ReadyBatch>();

        batcher.Add(Row("a", "1"), ready);
        batcher.Add(Row("b", "1"), ready);
        batcher.Add(Row("a", "2"), ready);
        Assert.Empty(ready);

        batcher.Add(Row("a", "3"), ready);

        var batch = Assert.Single(ready).Batch;
        Assert.Equal("a", batch.PartitionKey);
        Assert.Equal(["1", "2", "3"], batch.Entities.Select(e => e.RowKey));
        Assert.Equal(1, batcher.BufferedRows);
    }

    [Fact]
    public void Flush_emits_every_partial_batch_oldest_first()
    {
        var batcher = Batcher();
        var ready = new List<ReadyBatch>();
        batcher.Add(Row("b", "1"), ready);
        batcher.Add(Row("a", "1"), ready);
        batcher.Add(Row("b", "2"), ready);

        batcher.Flush(ready);

        Assert.Equal(["b", "a"], ready.Select(r => r.Batch.PartitionKey));
        Assert.Equal(0, batcher.BufferedRows);
        Assert.Equal(0, batcher.PendingPartitions);
    }

    [Fact]
    public void A_full_buffer_sends_its_oldest_partial_batch_so_memory_stays_bounded()
    {
        var batcher = Batcher(maxBuffered: 100);
        var ready = new List<ReadyBatch>();

        for (var i = 0; i < 10_000; i++)
        {
            batcher.Add(Row($"p{i}", "r"), ready);
            Assert.True(batcher.BufferedRows <= 100);
        }

        Assert.Equal(9_900, ready.Count);
        Assert.Equal(Enumerable.Range(0, 9_900).Select(i => $"p{i}"), ready.Select(r => r.Batch.PartitionKey));
    }

    [Fact]
    public void The_buffer_is_bounded_by_the_memory_its_rows_hold_so_wide_rows_fill_it_sooner_than_narrow_ones()
    {
        const long budget = 1024 * 1024;
        var narrow = Row("n", "r", 100, ("a", "x"));
        var wide = Row("w", "r", 100, Enumerable.Range(0, 40).Select(i => ($"c{i}", new string('v', 40))).ToArray());
        Assert.True(EntityFootprint.Of(wide) > 10 * EntityFootprint.Of(narrow));

        int Held(Func<int, LoadEntity> row)
        {
            var batcher = new PartitionBatcher(new BatchingPolicy(100, 1_000_000, int.MaxValue, budget, WriteMode.Upsert), entity => new EntityInspection(entity.PayloadBytes, null));
            var ready = new List<ReadyBatch>();
            var most = 0;
            for (var i = 0; i < 50_000; i++)
            {
                batcher.Add(row(i), ready);
                Assert.True(batcher.BufferedBytes <= budget);
                most = Math.Max(most, batcher.BufferedRows);
            }

            // The oldest partial batch left first, as with a bound in rows.
            Assert.Equal(Enumerable.Range(0, ready.Count).Select(i => $"p{i}"), ready.Select(r => r.Batch.PartitionKey));
            return most;
        }

        var narrowRows = Held(i => narrow with { PartitionKey = $"p{i}" });
        var wideRows = Held(i => wide with { PartitionKey = $"p{i}" });

        Assert.InRange(narrowRows, 1_000, 50_000);
        Assert.True(wideRows * 10 < narrowRows, $"{wideRows} wide rows held against {narrowRows} narrow");
    }

    [Fact]
    public void A_byte_budget_for_a_thousand_keys_fills_their_batches_where_twenty_thousand_rows_did_not()
    {
        // A thousand partition keys in turn, rows of 20 columns like the flights': the buffer must hold about half a batch
        // per key for most batches to leave full.
        EntityProperty[] properties =
        [
            .. Enumerable.Range(0, 8).Select(i => EntityProperty.FromInt32($"i{i}", i)),
            .. Enumerable.Range(0, 8).Select(i => EntityProperty.FromDouble($"d{i}", i + 0.5)),
            .. Enumerable.Range(0, 4).Select(i => EntityProperty.FromString($"s{i}", "ABC")),
        ];
        var text = new byte[110];
        var keys = new Random(42).GetItems(Enumerable.Range(0, 1_000).ToArray(), 300_000);
        int Requests(int maxRows, long maxBytes)
        {
            var batcher = new PartitionBatcher(new BatchingPolicy(100, 1_000_000, maxRows, maxBytes, WriteMode.Upsert), entity => new EntityInspection(entity.PayloadBytes, null));
            var ready = new List<ReadyBatch>();
            for (var i = 0; i < keys.Length; i++)
            {
                batcher.Add(new LoadEntity($"k{keys[i]}", $"2020-1-1-AA-{i}", properties, new RowOrigin(i + 1, i + 2), 100, text), ready);
            }

            batcher.Flush(ready);
            return ready.Count;
        }

        // Every batch full but each key's last: the fewest requests these rows can go in.
        var fewest = keys.CountBy(key => key).Sum(count => (count.Value + 99) / 100);
        var byRows = Requests(20_000, long.MaxValue);
        var byBytes = Requests(int.MaxValue, BufferBudget.DefaultBytes);
        Assert.True(byRows > 1.5 * fewest, $"{byRows} requests by 20,000 rows, {fewest} at the fewest");
        Assert.True(byBytes <= 1.2 * fewest, $"{byBytes} requests by {BufferBudget.DefaultBytes:N0} bytes, {fewest} at the fewest");
    }

    [Fact]
    public void The_default_budget_is_a_sixteenth_of_a_small_machines_memory_and_no_more_than_the_default_on_a_large_one()
    {
        Assert.Equal(BufferBudget.DefaultBytes, BufferBudget.For(64L * 1024 * 1024 * 1024));
        Assert.Equal(512L * 1024 * 1024 / 16, BufferBudget.For(512L * 1024 * 1024));
    }

    [Fact]
    public void Batches_already_sent_are_not_kept_when_the_buffer_never_fills()
    {
        // Few keys and full batches: the buffer never fills, so no eviction ever walks the age queue.
        var batcher = Batcher(maxOperations: 10, maxBuffered: 10_000);
        var ready = new List<ReadyBatch>();
        var emitted = 0;

        for (var i = 0; i < 100_000; i++)
        {
            batcher.Add(Row($"p{i % 3}", $"r{i}"), ready);
            emitted += ready.Count;
            ready.Clear();
            // At most twice the waiting batches (3 keys) plus a constant: not the 10,000 sent.
            Assert.True(batcher.QueuedBatches <= (2 * 3) + 65, $"{batcher.QueuedBatches} batches queued after {emitted} were sent");
        }

        Assert.True(emitted >= 9_990);
        batcher.Flush(ready);
        Assert.Equal(100_000, (emitted * 10) + ready.Sum(r => r.Batch.Entities.Count));
    }

    [Fact]
    public void A_batch_never_exceeds_the_payload_limit()
    {
        var batcher = Batcher(maxPayload: 1_000);
        var ready = new List<ReadyBatch>();

        for (var i = 0; i < 10; i++)
        {
            batcher.Add(Row("a", $"{i}", payloadBytes: 300), ready);
        }

        batcher.Flush(ready);

        Assert.All(ready, r => Assert.True(r.Batch.PayloadBytes <= 1_000));
        Assert.Equal([3, 3, 3, 1], ready.Select(r => r.Batch.Entities.Count));
    }

    [Fact]
    public void Under_upsert_a_repeated_key_replaces_the_earlier_row_which_is_superseded()
    {
        var batcher = Batcher();
        var ready = new List<ReadyBatch>();
        var earlier = Row("a", "k", 100, ("v", "old"));
        batcher.Add(earlier, ready);
        batcher.Add(Row("a", "other"), ready);

        var duplicate = batcher.Add(Row("a", "k", 100, ("v", "new")), ready);

        Assert.Equal(DuplicateResolution.LaterReplacesEarlier, duplicate?.Resolution);
        Assert.Same(earlier, duplicate?.Earlier);
        batcher.Flush(ready);
        var batch = Assert.Single(ready);
        Assert.Equal(["k", "other"], batch.Batch.Entities.Select(e => e.RowKey));
        Assert.Equal("new", batch.Batch.Entities[0].Properties.Single().Value);
        Assert.Equal(earlier.Origin.Record, batch.FirstRecord);
    }

    [Fact]
    public void Under_merge_repeated_keys_fold_into_one_operation_with_the_later_values_winning()
    {
        var batcher = Batcher(mode: WriteMode.Merge);
        var ready = new List<ReadyBatch>();
        batcher.Add(Row("a", "k", 100, ("x", "1"), ("y", "1")), ready);

        var duplicate = batcher.Add(Row("a", "k", 100, ("y", "2"), ("z", "2")), ready);

        Assert.Equal(DuplicateResolution.Merged, duplicate?.Resolution);
        batcher.Flush(ready);
        var merged = Assert.Single(Assert.Single(ready).Batch.Entities);
        Assert.Equal(
            new Dictionary<string, object> { ["x"] = "1", ["y"] = "2", ["z"] = "2" },
            merged.Properties.ToDictionary(p => p.Name, p => p.Value));
    }

    [Fact]
    public void Under_insert_the_first_row_stands_and_the_later_is_reported()
    {
        var batcher = Batcher(mode: WriteMode.Insert);
        var ready = new List<ReadyBatch>();
        var first = Row("a", "k", 100, ("v", "first"));
        batcher.Add(first, ready);

        var duplicate = batcher.Add(Row("a", "k", 100, ("v", "second")), ready);

        Assert.Equal(DuplicateResolution.LaterRejected, duplicate?.Resolution);
        batcher.Flush(ready);
        Assert.Same(first, Assert.Single(Assert.Single(ready).Batch.Entities));
    }

    [Fact]
    public void A_replacement_too_big_for_its_batch_moves_to_the_next_batch()
    {
        var batcher = Batcher(maxPayload: 1_000);
        var ready = new List<ReadyBatch>();
        batcher.Add(Row("a", "1", 400), ready);
        batcher.Add(Row("a", "k", 100), ready);

        var duplicate = batcher.Add(Row("a", "k", 700), ready);

        Assert.Equal(DuplicateResolution.LaterReplacesEarlier, duplicate?.Resolution);
        batcher.Flush(ready);
        Assert.Equal(2, ready.Count);
        Assert.Equal(["1"], ready[0].Batch.Entities.Select(e => e.RowKey));
        Assert.Equal(["k"], ready[1].Batch.Entities.Select(e => e.RowKey));
        Assert.Equal(700, ready[1].Batch.Entities[0].PayloadBytes);
        Assert.All(ready, r => Assert.True(r.Batch.PayloadBytes <= 1_000));
    }

    [Fact]
    public void Every_batch_knows_the_lowest_record_it_stands_for()
    {
        var batcher = Batcher(maxOperations: 2);
        var ready = new List<ReadyBatch>();
        batcher.Add(Row("a", "1"), ready); // record 1
        batcher.Add(Row("b", "1"), ready); // record 2
        batcher.Add(Row("a", "2"), ready); // record 3: batch a full
        batcher.Add(Row("a", "3"), ready); // record 4
        batcher.Flush(ready);

        Assert.Equal([(1L, "a"), (2L, "b"), (4L, "a")], ready.Select(r => (r.FirstRecord, r.Batch.PartitionKey)));
    }

    [Fact]
    public void Every_batch_carries_its_rows_records_in_their_order_after_repeated_keys_replaced_or_moved_rows()
    {
        var batcher = Batcher(maxPayload: 1_000);
        var ready = new List<ReadyBatch>();
        batcher.Add(Row("a", "1", 100), ready); // record 1
        batcher.Add(Row("a", "k", 100), ready); // record 2
        batcher.Add(Row("a", "2", 100), ready); // record 3
        batcher.Add(Row("a", "k", 100), ready); // record 4 replaces record 2 in its place
        batcher.Add(Row("b", "x", 100), ready); // record 5
        batcher.Add(Row("b", "y", 100), ready); // record 6
        batcher.Add(Row("b", "x", 950), ready); // record 7: too big where record 5 stood, so b's batch leaves without it and it opens the next

        batcher.Flush(ready);

        Assert.Equal([[6L], [1L, 4, 3], [7L]], ready.Select(batch => batch.RowRecords.ToArray()));
        Assert.All(ready, batch => Assert.Equal(batch.Batch.Entities.Select(entity => entity.Origin.Record), batch.RowRecords.ToArray()));
    }

    [Fact]
    public void A_repeated_key_is_found_wherever_it_stands_in_a_full_size_batch()
    {
        var batcher = Batcher();
        var ready = new List<ReadyBatch>();
        for (var i = 0; i < 90; i++)
        {
            batcher.Add(Row("a", $"key-{i}", 100, ("v", "first")), ready);
        }

        var repeated = new[] { 0, 5, 16, 17, 60, 89 };
        foreach (var i in repeated)
        {
            Assert.Equal(DuplicateResolution.LaterReplacesEarlier, batcher.Add(Row("a", $"key-{i}", 100, ("v", "second")), ready)?.Resolution);
        }

        Assert.Null(batcher.Add(Row("a", "key-90", 100, ("v", "first")), ready));
        batcher.Flush(ready);
        var batch = Assert.Single(ready).Batch;
        Assert.Equal(91, batch.Entities.Count);
        Assert.Equal(Enumerable.Range(0, 91).Select(i => $"key-{i}"), batch.Entities.Select(e => e.RowKey));
        Assert.Equal(
            Enumerable.Range(0, 91).Select(i => repeated.Contains(i) ? "second" : "first"),
            batch.Entities.Select(e => e.Properties.Single().AsString()));
    }

    [Fact]
    public void A_partial_batch_leaves_as_it_is_once_it_has_waited_the_maximum_delay_and_younger_ones_stay()
    {
        var clock = new FakeTimeProvider();
        var batcher = new PartitionBatcher(
            new BatchingPolicy(100, 1_000_000, 10_000, long.MaxValue, WriteMode.Upsert, MaxBatchDelay: TimeSpan.FromSeconds(5)),
            entity => new EntityInspection(entity.PayloadBytes, null),
            timeProvider: clock);
        var ready = new List<ReadyBatch>();

        batcher.Add(Row("rare", "1"), ready);
        clock.Advance(TimeSpan.FromSeconds(4));
        batcher.Add(Row("busy", "1"), ready);
        batcher.Add(Row("rare", "2"), ready);
        batcher.EmitExpired(ready);
        Assert.Empty(ready);

        clock.Advance(TimeSpan.FromSeconds(1));
        batcher.EmitExpired(ready);
        var rare = Assert.Single(ready).Batch;
        Assert.Equal("rare", rare.PartitionKey);
        Assert.Equal(["1", "2"], rare.Entities.Select(e => e.RowKey));
        Assert.Equal(1, batcher.BufferedRows);

        ready.Clear();
        clock.Advance(TimeSpan.FromSeconds(3.9));
        batcher.EmitExpired(ready);
        Assert.Empty(ready);
        clock.Advance(TimeSpan.FromSeconds(0.1));
        batcher.EmitExpired(ready);
        Assert.Equal("busy", Assert.Single(ready).Batch.PartitionKey);
        Assert.Equal(0, batcher.BufferedRows);
    }

    [Fact]
    public void Without_a_maximum_delay_a_partial_batch_waits_however_long_it_takes()
    {
        var clock = new FakeTimeProvider();
        var batcher = new PartitionBatcher(new BatchingPolicy(100, 1_000_000, 10_000, long.MaxValue, WriteMode.Upsert), entity => new EntityInspection(entity.PayloadBytes, null), timeProvider: clock);
        var ready = new List<ReadyBatch>();
        batcher.Add(Row("rare", "1"), ready);

        clock.Advance(TimeSpan.FromDays(1));
        batcher.EmitExpired(ready);

        Assert.Empty(ready);
        Assert.Equal(1, batcher.BufferedRows);
    }
}
