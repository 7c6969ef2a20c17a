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
internal sealed class BatchStage(PartitionBatcher batcher, RejectSink rejects, RecordWatermark watermark, Func<(long Record, long Line)> lastRead, TimeSpan idlePeriod)
{
    /// <summary>Batches until the input is completed and drained. Blocks: run it on its own thread.</summary>
    public void Run(ChannelReader<LoadEntity[]> input, ChannelWriter<ReadyBatch> output)
    {
        Exception? failure = null;
        var ready = new List<ReadyBatch>();
        var pending = new List<long>(ReadStage.ChunkSize);
        try
        {
            while (BlockingChannel.TryRead(input, out var chunk, idlePeriod, () => EmitExpired(ready, output)))
            {
                foreach (var entity in chunk)
                {
                    if (batcher.Add(entity, ready) is { Resolution: DuplicateResolution.LaterRejected } duplicate)
                    {
                        rejects.Reject(duplicate.Later, $"same partition and row key as line {duplicate.Earlier.Origin.Line}; under Insert the first row stands");
                    }
                    else
                    {
                        pending.Add(entity.Origin.Record);
                    }
                }

                // Pending before any of their batches can reach the dispatcher and settle.
                watermark.Pending(System.Runtime.InteropServices.CollectionsMarshal.AsSpan(pending));
                pending.Clear();

                // The chunk's batches go together: the dispatcher then wakes once per chunk, not once per batch.
                batcher.EmitExpired(ready);
                PassOn(ready, output);
                watermark.Batched(chunk[^1].Origin.Record, chunk[^1].Origin.Line);
            }

            batcher.Flush(ready);
            PassOn(ready, output);
            var (record, line) = lastRead();
            watermark.Batched(record, line); // rejects after the last entity are settled too
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

    private static void PassOn(List<ReadyBatch> ready, ChannelWriter<ReadyBatch> output)
    {
        foreach (var batch in ready)
        {
            BlockingChannel.Write(output, batch);
        }

        ready.Clear();
    }
}
