namespace Loader.Worker.Checkpoints;

/// <summary>
/// The input position below which every record is settled: written, rejected or superseded. Batches finish out
/// of order and rows wait in partial batches, so it is the minimum over everything still pending: the first
/// record of every open batch, and the records not yet past the batch stage. A batch whose rows failed stays
/// open, so a restart writes them again. Thread-safe: the batch stage opens, the dispatcher closes.
/// </summary>
public sealed class RecordWatermark
{
    private readonly Lock _lock = new();
    private readonly SortedDictionary<long, int> _open = [];
    private long _batched;
    private long _highestSent;

    /// <param name="resumedAfter">Records already settled by an earlier run (0 for a fresh load).</param>
    public RecordWatermark(long resumedAfter = 0)
    {
        _batched = resumedAfter;
    }

    /// <summary>The next record not known to be settled: a restart begins here.</summary>
    public long Current
    {
        get
        {
            lock (_lock)
            {
                var next = _batched + 1;
                return _open.Count > 0 ? Math.Min(next, _open.First().Key) : next;
            }
        }
    }

    /// <summary>The highest record sent to the service so far (a restart under Insert meets its own rows up to here).</summary>
    public long HighestSent
    {
        get
        {
            lock (_lock)
            {
                return _highestSent;
            }
        }
    }

    /// <summary>A batch opened whose lowest record is <paramref name="firstRecord"/>.</summary>
    public void Open(long firstRecord)
    {
        lock (_lock)
        {
            _open[firstRecord] = _open.GetValueOrDefault(firstRecord) + 1;
        }
    }

    /// <summary>A batch settled in full (or left with nothing to write).</summary>
    public void Close(long firstRecord)
    {
        lock (_lock)
        {
            if (_open.TryGetValue(firstRecord, out var count))
            {
                if (count == 1)
                {
                    _open.Remove(firstRecord);
                }
                else
                {
                    _open[firstRecord] = count - 1;
                }
            }
        }
    }

    /// <summary>Every record up to <paramref name="record"/> has passed the batch stage (into a batch, or settled before it).</summary>
    public void Batched(long record)
    {
        lock (_lock)
        {
            _batched = Math.Max(_batched, record);
        }
    }

    public void Sent(long record)
    {
        lock (_lock)
        {
            _highestSent = Math.Max(_highestSent, record);
        }
    }
}
