using System.Threading.Channels;
using Loader.Abstractions;
using Loader.Worker.Batching;
using Loader.Worker.Rejects;
using Loader.Worker.Reporting;

namespace Loader.Worker.Pipeline;

/// <summary>Second stage: groups entities into partition batches and hands ready batches to the dispatcher.</summary>
internal sealed class BatchStage(PartitionBatcher batcher, RejectSink rejects, LoadStatistics statistics)
{
    public async Task RunAsync(ChannelReader<LoadEntity[]> input, ChannelWriter<ReadyBatch> output)
    {
        Exception? failure = null;
        var ready = new List<ReadyBatch>();
        try
        {
            await foreach (var chunk in input.ReadAllAsync(CancellationToken.None).ConfigureAwait(false))
            {
                foreach (var entity in chunk)
                {
                    if (batcher.Add(entity, ready) is { } duplicate)
                    {
                        Account(duplicate);
                    }

                    if (ready.Count > 0)
                    {
                        await PassOnAsync(ready, output).ConfigureAwait(false);
                    }
                }
            }

            batcher.Flush(ready);
            await PassOnAsync(ready, output).ConfigureAwait(false);
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

    private void Account(DuplicateKey duplicate)
    {
        if (duplicate.Resolution == DuplicateResolution.LaterRejected)
        {
            rejects.Reject(
                duplicate.Later.Origin,
                $"same partition and row key as line {duplicate.Earlier.Origin.Line}; under Insert the first row stands",
                duplicate.Later.SourceFields);
        }
        else
        {
            statistics.RowsSuperseded(1);
        }
    }

    private static async Task PassOnAsync(List<ReadyBatch> ready, ChannelWriter<ReadyBatch> output)
    {
        foreach (var batch in ready)
        {
            await output.WriteAsync(batch, CancellationToken.None).ConfigureAwait(false);
        }

        ready.Clear();
    }
}
