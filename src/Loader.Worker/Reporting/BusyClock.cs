namespace Loader.Worker.Reporting;

/// <summary>
/// The wall time during which at least one holder was in: how long the load had a request at the service, say, however
/// many were there at once. Holders enter and leave from any thread; each is a lock, taken per batch, never per row.
/// </summary>
internal sealed class BusyClock(TimeProvider timeProvider)
{
    private readonly Lock _lock = new();
    private int _holders;
    private long _since;
    private TimeSpan _busy;

    public void Enter()
    {
        lock (_lock)
        {
            if (_holders++ == 0)
            {
                _since = timeProvider.GetTimestamp();
            }
        }
    }

    public void Leave()
    {
        lock (_lock)
        {
            if (_holders > 0 && --_holders == 0)
            {
                _busy += timeProvider.GetElapsedTime(_since);
            }
        }
    }

    /// <summary>The wall time with at least one holder in, up to now.</summary>
    public TimeSpan Busy
    {
        get
        {
            lock (_lock)
            {
                return _holders > 0 ? _busy + timeProvider.GetElapsedTime(_since) : _busy;
            }
        }
    }
}
