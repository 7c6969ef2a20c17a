using System.Collections.Concurrent;

namespace Loader.Worker.Parquet;

/// <summary>
/// Reads the row group after the one being mapped, on a thread of its own (one for all the groups of a load), so decoding it overlaps mapping: at most
/// one row group ahead, and with a budget, each column only once the budget has room for it (the group being mapped
/// gives its rows' values back as they are mapped). Its failure (damage) is thrown only when the group is taken, after
/// the rows before it.
/// </summary>
internal sealed class ParquetReadAhead(ParquetReadBudget? budget = null) : IDisposable
{
    private ParquetFileReader? _file;
    private int _group = -1;
    private Task<ParquetRowGroupData>? _reading;
    private CancellationTokenSource? _cancel;
    private readonly BlockingCollection<Action> _reads = [];
    private Thread? _thread;

    /// <summary>Starts reading <paramref name="group"/> of <paramref name="file"/>.</summary>
    public void Start(ParquetFileReader file, int group)
    {
        Discard();
        var cancel = new CancellationTokenSource();
        // The token is taken here, not in the thread: the source is disposed once the group is taken or dropped, which
        // may come before the thread has begun the read.
        var token = cancel.Token;
        var read = new TaskCompletionSource<ParquetRowGroupData>(TaskCreationOptions.RunContinuationsAsynchronously);
        (_file, _group, _cancel, _reading) = (file, group, cancel, read.Task);
        Post(() =>
        {
            try
            {
                token.ThrowIfCancellationRequested();
                read.SetResult(file.ReadRowGroupAsync(group, budget, wait: true, token).GetAwaiter().GetResult());
            }
            catch (OperationCanceledException) when (token.IsCancellationRequested)
            {
                read.SetCanceled(token);
            }
            catch (Exception exception)
            {
                read.SetException(exception);
            }
        });
    }

    /// <summary>Row group <paramref name="group"/> of <paramref name="file"/>, read: the one read ahead when it is that one, otherwise read now.</summary>
    public ParquetRowGroupData Take(ParquetFileReader file, int group)
    {
        if (_reading is { } reading && ReferenceEquals(file, _file) && group == _group)
        {
            // The mapping waits for this group: it holds nothing more to give back, so the read waits for room no longer.
            budget?.Open();
            try
            {
                return reading.GetAwaiter().GetResult();
            }
            finally
            {
                budget?.Close();
                Clear();
            }
        }

        Discard();
        return file.ReadRowGroupAsync(group, budget, wait: false, CancellationToken.None).GetAwaiter().GetResult();
    }

    /// <summary>Stops a read ahead that will not be taken, and lets go of what it read.</summary>
    public void Discard()
    {
        if (_reading is not { } reading)
        {
            return;
        }

        _cancel!.Cancel();
        try
        {
            reading.GetAwaiter().GetResult().Dispose();
        }
        catch (Exception)
        {
            // The group was not going to be read: neither its damage nor its cancellation is the load's.
        }
        finally
        {
            Clear();
        }
    }

    public void Dispose()
    {
        Discard();
        _reads.CompleteAdding();
        _thread?.Join();
        _reads.Dispose();
    }

    // One thread reads every group ahead, started with the first: the buffers the library takes from the shared pool as
    // it decompresses pages stay in that thread's slot of the pool, where a thread per group would leave one each.
    private void Post(Action read)
    {
        if (_thread is null)
        {
            _thread = new Thread(() =>
            {
                foreach (var next in _reads.GetConsumingEnumerable())
                {
                    next();
                }
            })
            { IsBackground = true, Name = "Parquet read ahead" };
            _thread.Start();
        }

        _reads.Add(read);
    }

    private void Clear()
    {
        _cancel?.Dispose();
        (_file, _group, _reading, _cancel) = (null, -1, null, null);
    }
}
