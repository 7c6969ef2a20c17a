namespace Loader.Worker.Dispatch.Concurrency;

/// <summary>
/// Tells service-wide pushback from a hot partition. Throttles from two or more partition keys within the recent
/// window mean the service as a whole is at its limit; throttles from one key alone mean that partition is hot,
/// and it already waits on its own (one batch per key in flight, retried after its retry-after), so the others
/// need not slow down. Thread-safe.
/// </summary>
internal sealed class ThrottleSignal(TimeProvider timeProvider, TimeSpan window)
{
    private readonly Lock _lock = new();
    private readonly Queue<(long At, string PartitionKey)> _recent = new();

    /// <summary>Records a throttled answer; true when it shows service-wide pressure.</summary>
    public bool IsServiceWide(string partitionKey)
    {
        lock (_lock)
        {
            var now = timeProvider.GetTimestamp();
            while (_recent.TryPeek(out var oldest) && timeProvider.GetElapsedTime(oldest.At, now) > window)
            {
                _recent.Dequeue();
            }

            _recent.Enqueue((now, partitionKey));
            foreach (var (_, key) in _recent)
            {
                if (!string.Equals(key, partitionKey, StringComparison.Ordinal))
                {
                    return true;
                }
            }

            return false;
        }
    }
}
