namespace Loader.Worker.Parquet;

/// <summary>
/// Reads the row group after the one being mapped, on a thread of its own, so decoding it overlaps mapping: at most
/// one row group ahead. Its failure (damage) is thrown only when the group is taken, after the rows before it.
/// </summary>
internal sealed class ParquetReadAhead : IDisposable
{
    private ParquetFileReader? _file;
    private int _group = -1;
    private Task<ParquetRowGroupData>? _reading;
    private CancellationTokenSource? _cancel;

    /// <summary>Starts reading <paramref name="group"/> of <paramref name="file"/>.</summary>
    public void Start(ParquetFileReader file, int group)
    {
        Discard();
        var cancel = new CancellationTokenSource();
        // The token is taken here, not in the thread: the source is disposed once the group is taken or dropped, which
        // may come before the thread has started.
        var token = cancel.Token;
        (_file, _group, _cancel) = (file, group, cancel);
        _reading = Task.Factory.StartNew(
            () => file.ReadRowGroupAsync(group, token).GetAwaiter().GetResult(),
            token, TaskCreationOptions.LongRunning | TaskCreationOptions.DenyChildAttach, TaskScheduler.Default);
    }

    /// <summary>Row group <paramref name="group"/> of <paramref name="file"/>, read: the one read ahead when it is that one, otherwise read now.</summary>
    public ParquetRowGroupData Take(ParquetFileReader file, int group)
    {
        if (_reading is { } reading && ReferenceEquals(file, _file) && group == _group)
        {
            try
            {
                return reading.GetAwaiter().GetResult();
            }
            finally
            {
                Clear();
            }
        }

        Discard();
        return file.ReadRowGroupAsync(group, CancellationToken.None).GetAwaiter().GetResult();
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

    public void Dispose() => Discard();

    private void Clear()
    {
        _cancel?.Dispose();
        (_file, _group, _reading, _cancel) = (null, -1, null, null);
    }
}
