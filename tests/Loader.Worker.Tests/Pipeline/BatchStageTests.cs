using System.Threading.Channels;
using Loader.Abstractions;
using Loader.Worker.Batching;
using Loader.Worker.Checkpoints;
using Loader.Worker.Pipeline;
using Loader.Worker.Rejects;
using Loader.Worker.Reporting;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Time.Testing;
using Loader.Worker.Security;

namespace Loader.Worker.Tests.Pipeline;

public sealed class BatchStageTests : IDisposable
{
    private static readonly TimeSpan s_bound = TimeSpan.FromSeconds(10);

    private readonly FakeTimeProvider _clock = new();
    private readonly TestMeterFactory _meters = new();
    private readonly RejectSink _rejects;

    public BatchStageTests()
    {
        _rejects = new RejectSink(null, 1000, new LoadStatistics(new LoaderMetrics(_meters), _clock), NullLogger<RejectSink>.Instance, Redaction.Rule);
    }

    public void Dispose()
    {
        _rejects.Dispose();
        _meters.Dispose();
    }

    private static ReadChunk Chunk(LoadEntity entity) => new([entity], [RowMeasure.Of(entity)], entity.Origin, null);

    [Fact]
    public async Task While_no_rows_come_a_batch_that_waited_its_time_still_leaves()
    {
        var watermark = new RecordWatermark();
        var batcher = new PartitionBatcher(
            new BatchingPolicy(100, 1_000_000, 10_000, long.MaxValue, WriteMode.Upsert, MaxBatchDelay: TimeSpan.FromSeconds(5)),
            entity => new EntityInspection(entity.PayloadBytes, null),
            _clock);
        var stage = new BatchStage(batcher, _rejects, watermark, idlePeriod: TimeSpan.FromMilliseconds(10), dispatcherWaits: () => true);
        var rows = Channel.CreateUnbounded<ReadChunk>();
        var batches = Channel.CreateUnbounded<ReadyBatch>();
        var running = StageThread.Run("test-batch", () => stage.Run(rows.Reader, batches.Writer));

        // One row of a rare key, then the input goes quiet (a slow blob, a reader held back) but does not end.
        await rows.Writer.WriteAsync(Chunk(new LoadEntity("rare", "1", [], new RowOrigin(1, 2), 10)), TestContext.Current.CancellationToken);
        await Task.Delay(100, TestContext.Current.CancellationToken);
        Assert.False(batches.Reader.TryRead(out _), "the batch left before its time");

        _clock.Advance(TimeSpan.FromSeconds(5));
        using var bound = new CancellationTokenSource(s_bound);
        var batch = await batches.Reader.ReadAsync(bound.Token);

        Assert.Equal("rare", batch.Batch.PartitionKey);
        Assert.Equal(1, watermark.PendingRows);
        Assert.False(running.IsCompleted);
        rows.Writer.Complete();
        await running.WaitAsync(s_bound, TestContext.Current.CancellationToken);
    }

    [Fact]
    public async Task While_batches_queue_for_the_service_a_partial_batch_keeps_filling_past_its_time()
    {
        var watermark = new RecordWatermark();
        var batcher = new PartitionBatcher(
            new BatchingPolicy(100, 1_000_000, 10_000, long.MaxValue, WriteMode.Upsert, MaxBatchDelay: TimeSpan.FromSeconds(5)),
            entity => new EntityInspection(entity.PayloadBytes, null),
            _clock);
        var dispatcherWaits = false;
        var stage = new BatchStage(batcher, _rejects, watermark, idlePeriod: TimeSpan.FromMilliseconds(10), dispatcherWaits: () => Volatile.Read(ref dispatcherWaits));
        var rows = Channel.CreateUnbounded<ReadChunk>();
        var batches = Channel.CreateUnbounded<ReadyBatch>();
        var running = StageThread.Run("test-batch", () => stage.Run(rows.Reader, batches.Writer));

        await rows.Writer.WriteAsync(Chunk(new LoadEntity("key", "1", [], new RowOrigin(1, 2), 10)), TestContext.Current.CancellationToken);
        await Task.Delay(100, TestContext.Current.CancellationToken);
        _clock.Advance(TimeSpan.FromSeconds(6));
        await Task.Delay(100, TestContext.Current.CancellationToken); // several idle periods pass while the dispatcher is busy
        Assert.False(batches.Reader.TryRead(out _), "a part-full batch left while the dispatcher still had batches to send");

        // A later row of the same key joins the batch that waited, instead of opening a second request. The dispatcher
        // asks for batches only once the stage has taken the row: on a busy machine an idle period could come first.
        await rows.Writer.WriteAsync(Chunk(new LoadEntity("key", "2", [], new RowOrigin(2, 3), 10)), TestContext.Current.CancellationToken);
        using (var taken = new CancellationTokenSource(s_bound))
        {
            while (watermark.PendingRows < 2)
            {
                await Task.Delay(5, taken.Token);
            }
        }

        Volatile.Write(ref dispatcherWaits, true);
        using var bound = new CancellationTokenSource(s_bound);
        var batch = await batches.Reader.ReadAsync(bound.Token);

        Assert.Equal(["1", "2"], batch.Batch.Entities.Select(entity => entity.RowKey));
        rows.Writer.Complete();
        await running.WaitAsync(s_bound, TestContext.Current.CancellationToken);
    }
}
