using System.Threading.Channels;
using Loader.Worker.Batching;
using Loader.Worker.Checkpoints;
using Loader.Worker.Rejects;
using Loader.Worker.Reporting;

namespace Loader.Worker.Pipeline;

/// <summary>
/// Second stage: groups entities into partition batches and hands ready batches to the dispatcher. Partial batches
/// that waited their time leave after every chunk, and while the input is slow to come, every <c>idlePeriod</c> —
/// but only while <c>dispatcherWaits</c> says the dispatcher has no batch left to take. While batches queue for the
/// service, a part-full batch sent early would only cost one more request for the same rows, and fewer rows per request
/// cost throughput; it keeps filling instead, bounded by the buffer, and the checkpoint's pending ranges keep a restart
/// from re-sending more than it holds.
/// </summary>
/// <param name="batcher">Groups rows into batches.</param>
/// <param name="rejects">Where rows the batcher refuses go.</param>
/// <param name="watermark">Learns which records are pending in batches.</param>
/// <param name="idlePeriod">How often to look for lingering batches while no rows come.</param>
/// <param name="dispatcherWaits">Whether the dispatcher has taken every batch handed to it.</param>
/// <param name="times">Where the stage's running time and its waits for rows and for the dispatcher are counted; none when null.</param>
internal sealed class BatchStage(
    PartitionBatcher batcher, RejectSink rejects, RecordWatermark watermark, TimeSpan idlePeriod, Func<bool> dispatcherWaits, LoadTimes? times = null)
{
    private readonly TimeProvider _clock = times?.Clock ?? TimeProvider.System;
    private TimeSpan _waitingForRows;
    private TimeSpan _waitingForDispatcher;

    /// <summary>Batches until the input is completed and drained. Blocks: run it on its own thread.</summary>
    public void Run(ChannelReader<ReadChunk> input, ChannelWriter<ReadyBatch> output)
    {
        var started = _clock.GetTimestamp();
        try
        {
            BatchAll(input, output);
        }
        finally
        {
            times?.BatcherEnded(_clock.GetElapsedTime(started), _waitingForRows, _waitingForDispatcher);
        }
    }

    private void BatchAll(ChannelReader<ReadChunk> input, ChannelWriter<ReadyBatch> output)
    {
        Exception? failure = null;
        var ready = new List<ReadyBatch>();
        var pending = new List<long>(ReadStage.ChunkSize);
        try
        {
            while (NextChunk(input, out var chunk, () => PassOnWithLingered(ready, output)))
            {
                for (var i = 0; i < chunk.Entities.Length; i++)
                {
                    var entity = chunk.Entities[i];
                    if ((chunk.Measures is { } measures ? batcher.Add(entity, measures[i], ready) : batcher.Add(entity, ready)) is { Resolution: DuplicateResolution.LaterRejected } duplicate)
                    {
                        rejects.Reject(duplicate.Later, $"same partition and row key as {rejects.Describe(duplicate.Earlier.Origin)}; under Insert the first row stands");
                    }
                    else
                    {
                        pending.Add(entity.Origin.Record);
                    }
                }

                // Pending before any of their batches can reach the dispatcher and settle.
                watermark.Pending(System.Runtime.InteropServices.CollectionsMarshal.AsSpan(pending));
                pending.Clear();

                // The chunk's batches go together: the dispatcher then wakes once per chunk, not once per batch. Whether
                // it waits is asked before they go: it took all the earlier chunks gave it.
                PassOnWithLingered(ready, output);
                watermark.Batched(chunk.Through.Record, chunk.Through.Line, chunk.Fingerprint);
            }

            batcher.Flush(ready);
            PassOn(ready, output);
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

    /// <summary>The next chunk of rows, waiting while none comes; the wait counted, less what <paramref name="whileIdle"/> spent handing batches on.</summary>
    private bool NextChunk(ChannelReader<ReadChunk> input, out ReadChunk chunk, Action whileIdle)
    {
        var started = _clock.GetTimestamp();
        var handingOn = _waitingForDispatcher;
        var read = BlockingChannel.TryRead(input, out chunk, idlePeriod, whileIdle);
        _waitingForRows += _clock.GetElapsedTime(started) - (_waitingForDispatcher - handingOn);
        return read;
    }

    private void PassOnWithLingered(List<ReadyBatch> ready, ChannelWriter<ReadyBatch> output)
    {
        if (dispatcherWaits())
        {
            batcher.EmitExpired(ready);
        }

        PassOn(ready, output);
    }

    private void PassOn(List<ReadyBatch> ready, ChannelWriter<ReadyBatch> output)
    {
        foreach (var batch in ready)
        {
            _waitingForDispatcher += BlockingChannel.Write(output, batch, _clock);
        }

        ready.Clear();
    }
}
