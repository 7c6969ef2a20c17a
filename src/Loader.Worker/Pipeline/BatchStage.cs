using System.Threading.Channels;
using Loader.Abstractions;
using Loader.Worker.Batching;
using Loader.Worker.Checkpoints;
using Loader.Worker.Rejects;

namespace Loader.Worker.Pipeline;

/// <summary>
/// Second stage: groups entities into partition batches and hands ready batches to the dispatcher. Partial batches
/// that waited their time leave after every chunk, and while the input is slow to come, every <c>idlePeriod</c>.
/// </summary>
internal sealed class BatchStage(PartitionBatcher batcher, RejectSink rejects, RecordWatermark watermark, Func<long> lastRecordRead, TimeSpan idlePeriod)
{
    /// <summary>Batches until the input is completed and drained. Blocks: run it on its own thread.</summary>
    public void Run(ChannelReader<LoadEntity[]> input, ChannelWriter<ReadyBatch> output)
    {
        Exception? failure = null;
        var ready = new List<ReadyBatch>();
        try
        {
            while (BlockingChannel.TryRead(input, out var chunk, idlePeriod, () => EmitExpired(ready, output)))
            {
                foreach (var entity in chunk)
                {
                    if (batcher.Add(entity, ready) is { } duplicate)
                    {
                        Account(duplicate);
                    }
                }

                // The chunk's batches go together: the dispatcher then wakes once per chunk, not once per batch.
                batcher.EmitExpired(ready);
                PassOn(ready, output);
                watermark.Batched(chunk[^1].Origin.Record);
            }

            batcher.Flush(ready);
            PassOn(ready, output);
            watermark.Batched(lastRecordRead()); // rejects after the last entity are settled too
        }
        catch (Exception exception)
        {
            failure = exception;
            throw;
        }
        finally
        {
            output.TryComplete(failure);
        }
    }

    private void EmitExpired(List<ReadyBatch> ready, ChannelWriter<ReadyBatch> output)
    {
        batcher.EmitExpired(ready);
        PassOn(ready, output);
    }

    /// <summary>A superseded row is counted when the row that replaced it lands (see <see cref="ReadyBatch.Superseded"/>).</summary>
    private void Account(DuplicateKey duplicate)
    {
        if (duplicate.Resolution == DuplicateResolution.LaterRejected)
        {
            rejects.Reject(duplicate.Later, $"same partition and row key as line {duplicate.Earlier.Origin.Line}; under Insert the first row stands");
        }
    }

    private static void PassOn(List<ReadyBatch> ready, ChannelWriter<ReadyBatch> output)
    {
        foreach (var batch in ready)
        {
            BlockingChannel.Write(output, batch);
        }

        ready.Clear();
    }
}
