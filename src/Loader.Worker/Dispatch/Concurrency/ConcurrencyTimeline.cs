namespace Loader.Worker.Dispatch.Concurrency;

/// <summary>The concurrency limit over a load: lowest, highest, last, and its time-weighted average.</summary>
internal sealed class ConcurrencyTimeline(TimeProvider timeProvider)
{
    private readonly Lock _lock = new();
    private readonly long _started = timeProvider.GetTimestamp();
    private long _since;
    private int _current = -1;
    private double _weighted;
    private int _min = int.MaxValue;
    private int _max;

    public void Record(int limit)
    {
        lock (_lock)
        {
            var now = timeProvider.GetTimestamp();
            if (_current >= 0)
            {
                _weighted += _current * timeProvider.GetElapsedTime(_since, now).TotalSeconds;
            }

            _current = limit;
            _since = now;
            _min = Math.Min(_min, limit);
            _max = Math.Max(_max, limit);
        }
    }

    public ConcurrencySummary Summary()
    {
        lock (_lock)
        {
            if (_current < 0)
            {
                return new ConcurrencySummary(0, 0, 0, 0);
            }

            var now = timeProvider.GetTimestamp();
            var total = timeProvider.GetElapsedTime(_started, now).TotalSeconds;
            var weighted = _weighted + (_current * timeProvider.GetElapsedTime(_since, now).TotalSeconds);
            return new ConcurrencySummary(_min, total > 0 ? Math.Round(weighted / total, 2) : _current, _max, _current);
        }
    }
}

/// <summary>Batches allowed in flight over a load.</summary>
internal sealed record ConcurrencySummary(int Min, double Average, int Max, int Final);
