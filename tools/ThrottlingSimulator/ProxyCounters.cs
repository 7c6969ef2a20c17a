namespace Loader.ThrottlingSimulator;

/// <summary>
/// The counters of a test proxy (the throttling simulator, the Cosmos DB stand-in) as one immutable snapshot record
/// behind one lock, rather than separate interlocked counters, so a snapshot never shows a request counted in one
/// place and not yet in another.
/// </summary>
public abstract class ProxyCounters<TSnapshot>(TSnapshot empty)
    where TSnapshot : class
{
    private readonly Lock _lock = new();
    private readonly TSnapshot _empty = empty;
    private TSnapshot _current = empty;

    public TSnapshot Snapshot()
    {
        lock (_lock)
        {
            return _current;
        }
    }

    public void Reset()
    {
        lock (_lock)
        {
            _current = _empty;
        }
    }

    protected void Update(Func<TSnapshot, TSnapshot> change)
    {
        ArgumentNullException.ThrowIfNull(change);
        lock (_lock)
        {
            _current = change(_current);
        }
    }
}
