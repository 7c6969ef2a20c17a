using System.Threading.Channels;
using Loader.Abstractions;
using Loader.Worker.Batching;
using Loader.Worker.Reporting;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Dispatch;

/// <summary>
/// Sends batches in parallel while keeping each partition key's batches in input order: a batch starts only
/// after the previous batch of its key has ended, so when a key repeats across batches the later row wins.
/// At most <c>maxQueued</c> batches are taken from the channel at once (in flight, waiting for a slot or
/// for their key's previous batch); past that the dispatcher stops reading, which holds back the batcher
/// and the reader behind it. Once <c>abort</c> is cancelled, batches still arriving are failed without being
/// sent and those in flight are cancelled, so the channel always drains and every row is accounted for.
/// </summary>
internal sealed partial class PartitionOrderedDispatcher(BatchWriter writer, int maxQueued, LoadStatistics statistics, ILogger<PartitionOrderedDispatcher> logger)
{
    private readonly Dictionary<string, Task> _tails = new(StringComparer.Ordinal);
    private readonly Lock _tailsLock = new();

    public async Task RunAsync(ChannelReader<ReadyBatch> batches, CancellationToken abort)
    {
        using var admission = new SemaphoreSlim(maxQueued, maxQueued);
        var running = new HashSet<Task>();
        var runningLock = new Lock();

        await foreach (var ready in batches.ReadAllAsync(CancellationToken.None).ConfigureAwait(false))
        {
            await admission.WaitAsync(CancellationToken.None).ConfigureAwait(false);
            var key = ready.Batch.PartitionKey;
            Task task;
            lock (_tailsLock)
            {
                var previous = _tails.GetValueOrDefault(key) ?? Task.CompletedTask;
                task = RunAfterAsync(previous, ready, abort);
                _tails[key] = task;
            }

            lock (runningLock)
            {
                running.Add(task);
            }

            _ = task.ContinueWith(
                finished =>
                {
                    lock (_tailsLock)
                    {
                        if (_tails.TryGetValue(key, out var tail) && ReferenceEquals(tail, finished))
                        {
                            _tails.Remove(key);
                        }
                    }

                    lock (runningLock)
                    {
                        running.Remove(finished);
                    }

                    admission.Release();
                },
                CancellationToken.None,
                TaskContinuationOptions.ExecuteSynchronously,
                TaskScheduler.Default);
        }

        Task[] remaining;
        lock (runningLock)
        {
            remaining = [.. running];
        }

        await Task.WhenAll(remaining).ConfigureAwait(false);
    }

    private async Task RunAfterAsync(Task previous, ReadyBatch ready, CancellationToken abort)
    {
        // The previous batch's own fate is already accounted for; only its end matters here.
        await previous.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
        try
        {
            await writer.WriteAsync(ready, abort).ConfigureAwait(false);
        }
        catch (Exception exception)
        {
            // A defect, not a service answer: the rows are counted failed, never dropped, and the load goes on.
            statistics.RowsFailed(ready.Batch.Entities.Count + (ready.Superseded?.Count ?? 0), $"internal error: {exception.Message}");
            LogUnexpected(exception, PartitionKeyLevels.Display(ready.Batch.PartitionKey));
        }
    }

    [LoggerMessage(Level = LogLevel.Error, Message = "Unexpected error writing a batch of partition '{PartitionKey}'")]
    private partial void LogUnexpected(Exception exception, string partitionKey);
}
