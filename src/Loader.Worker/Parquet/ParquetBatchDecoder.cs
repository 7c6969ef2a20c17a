using System.Collections.Concurrent;
using System.Runtime.ExceptionServices;

namespace Loader.Worker.Parquet;

/// <summary>
/// Decodes the batches of a Parquet input on a thread of its own while the batch before is mapped: at most two batches
/// exist at once, the one being mapped and the one decoded after it, since a column's cursor reads into two buffers in
/// turn. A failure to decode (damage, a failed read) is thrown when its batch is taken, after the batches before it.
/// </summary>
internal sealed class ParquetBatchDecoder : IDisposable
{
    // Batches that may exist at once: a cursor's cells stay valid until it has read two batches more.
    private const int Buffers = 2;

    private readonly Func<ParquetRowBatch?> _next;
    private readonly SemaphoreSlim _free = new(Buffers, Buffers);
    private readonly BlockingCollection<Decoded> _decoded = new(Buffers);
    private readonly CancellationTokenSource _stop = new();
    private readonly Thread _thread;
    private bool _holding;

    /// <param name="next">Decodes the next batch; null at the end of the input. Called on the decoder's thread only.</param>
    public ParquetBatchDecoder(Func<ParquetRowBatch?> next)
    {
        _next = next;
        _thread = new Thread(Run) { IsBackground = true, Name = "Parquet decode" };
        _thread.Start();
    }

    /// <summary>
    /// The next batch, waiting while it is decoded; null at the end. Taking one gives back the one taken before: its
    /// cells may be read again by the next decode.
    /// </summary>
    public ParquetRowBatch? Take()
    {
        if (_holding)
        {
            _holding = false;
            _free.Release();
        }

        var decoded = _decoded.Take();
        decoded.Failure?.Throw();
        _holding = decoded.Batch is not null;
        return decoded.Batch;
    }

    /// <summary>Stops decoding (the mapping stopped early, or ended) and waits for the thread to end.</summary>
    public void Dispose()
    {
        _stop.Cancel();
        _thread.Join();
        _stop.Dispose();
        _free.Dispose();
        _decoded.Dispose();
    }

    private void Run()
    {
        try
        {
            while (true)
            {
                _free.Wait(_stop.Token);
                var batch = _next();
                _decoded.Add(new Decoded(batch, null), _stop.Token);
                if (batch is null)
                {
                    return;
                }
            }
        }
        catch (OperationCanceledException) when (_stop.IsCancellationRequested)
        {
            // The mapping stopped: nothing waits for what was being decoded.
        }
        catch (Exception exception)
        {
            try
            {
                _decoded.Add(new Decoded(null, ExceptionDispatchInfo.Capture(exception)), _stop.Token);
            }
            catch (OperationCanceledException)
            {
                // Stopped meanwhile: the failure concerns rows nobody takes.
            }
        }
    }

    private sealed record Decoded(ParquetRowBatch? Batch, ExceptionDispatchInfo? Failure);
}
