namespace Loader.Worker.Parquet;

/// <summary>
/// The bytes a Parquet input's decoded row groups hold (the one being mapped and the one read ahead), and the limit the
/// read ahead waits under before it decodes its next column: about one row group and one column, so reading ahead
/// overlaps mapping without holding two whole row groups. The mapping gives bytes back as it passes rows
/// (<see cref="ParquetSlices{T}"/>). A read that nothing else holds bytes against never waits, so a column larger than
/// the limit is still read; nor does one the mapping waits for (<see cref="Open"/>), since what it would wait for is
/// given back only by the mapping.
/// </summary>
internal sealed class ParquetReadBudget
{
    private readonly Lock _lock = new();
    private TaskCompletionSource? _returned;
    private long _held;
    private long _limit;
    private bool _open;

    /// <summary>Bytes held now.</summary>
    public long Held
    {
        get
        {
            lock (_lock)
            {
                return _held;
            }
        }
    }

    /// <summary>The most bytes held before a read waits.</summary>
    public long Limit
    {
        get
        {
            lock (_lock)
            {
                return _limit;
            }
        }
    }

    /// <summary>Raises the limit to <paramref name="limit"/> when it is lower (a file of larger row groups).</summary>
    public void AtLeast(long limit)
    {
        lock (_lock)
        {
            _limit = Math.Max(_limit, limit);
            Wake();
        }
    }

    /// <summary>Waits until <paramref name="bytes"/> more would stay within the limit, or nothing is held.</summary>
    public async Task WaitForRoomAsync(long bytes, CancellationToken cancellationToken)
    {
        while (true)
        {
            Task returned;
            lock (_lock)
            {
                if (_open || _held == 0 || _held + bytes <= _limit)
                {
                    return;
                }

                _returned ??= new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
                returned = _returned.Task;
            }

            await returned.WaitAsync(cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>Lets reads go on past the limit until <see cref="Close"/>: the mapping waits for them.</summary>
    public void Open()
    {
        lock (_lock)
        {
            _open = true;
            Wake();
        }
    }

    /// <summary>Makes reads wait for room again.</summary>
    public void Close()
    {
        lock (_lock)
        {
            _open = false;
        }
    }

    /// <summary>Counts <paramref name="bytes"/> a column read now holds.</summary>
    public void Hold(long bytes)
    {
        lock (_lock)
        {
            _held += bytes;
        }
    }

    /// <summary>Counts off <paramref name="bytes"/> given back, waking a read that waits for room.</summary>
    public void Return(long bytes)
    {
        if (bytes == 0)
        {
            return;
        }

        lock (_lock)
        {
            _held -= bytes;
            Wake();
        }
    }

    private void Wake()
    {
        _returned?.TrySetResult();
        _returned = null;
    }
}
