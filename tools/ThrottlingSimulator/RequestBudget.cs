namespace Loader.ThrottlingSimulator;

/// <summary>The budget's answer to a charge: admitted, or how long to wait before the same request would be.</summary>
public readonly record struct BudgetDecision(bool Admitted, int RetryAfterMs)
{
    public static BudgetDecision Admit { get; } = new(true, 0);
}

/// <summary>
/// The account's bucket and, when a partition budget is set, one bucket per partition key. A batch must fit
/// every bucket it touches, and is charged to all of them or to none, so the check and the take share one lock.
/// </summary>
public sealed class RequestBudget
{
    // A full bucket behaves as a missing one, so full buckets are dropped; sweeping only when the map has
    // doubled keeps the cost per batch constant while a load walks through millions of partitions.
    private const int PruneThreshold = 10_000;

    private readonly Lock _lock = new();
    private readonly TimeProvider _timeProvider;
    private readonly double _partitionRate;
    private readonly double _burstSeconds;
    private readonly TokenBucket? _account;
    private readonly Dictionary<string, TokenBucket> _partitions = new(StringComparer.Ordinal);
    private int _pruneAt = PruneThreshold;

    public RequestBudget(double ruPerSecond, double partitionRuPerSecond, double burstSeconds, TimeProvider timeProvider)
    {
        ArgumentNullException.ThrowIfNull(timeProvider);
        _timeProvider = timeProvider;
        _partitionRate = partitionRuPerSecond;
        _burstSeconds = burstSeconds;
        _account = ruPerSecond > 0 ? new TokenBucket(ruPerSecond, ruPerSecond * burstSeconds, timeProvider) : null;
    }

    /// <summary>Partition buckets held now; full ones are forgotten as the map grows.</summary>
    public int PartitionBuckets
    {
        get
        {
            lock (_lock)
            {
                return _partitions.Count;
            }
        }
    }

    /// <summary>Takes <paramref name="cost"/> from the buckets when all of them hold it, otherwise nothing.</summary>
    public BudgetDecision TryCharge(double cost, string? partitionKey)
    {
        lock (_lock)
        {
            var partition = PartitionBucket(partitionKey);
            if (WaitMs(cost, partition) is { } waitMs)
            {
                return new BudgetDecision(false, waitMs);
            }

            _account?.Take(cost);
            partition?.Take(cost);
            return BudgetDecision.Admit;
        }
    }

    /// <summary>
    /// Milliseconds until the buckets would hold <paramref name="cost"/>, taking nothing: what to tell a client whose
    /// request was partly refused (Cosmos DB bulk) about the part refused. 0 when it fits now.
    /// </summary>
    public int MillisecondsUntilAvailable(double cost, string? partitionKey)
    {
        lock (_lock)
        {
            return WaitMs(cost, PartitionBucket(partitionKey)) ?? 0;
        }
    }

    private int? WaitMs(double cost, TokenBucket? partition)
    {
        var waitMs = Math.Max(
            _account?.MillisecondsUntilAvailable(cost) ?? 0,
            partition?.MillisecondsUntilAvailable(cost) ?? 0);

        // Rounded up so that a client waiting exactly this long finds the budget there.
        return waitMs > 0 ? (int)Math.Min(int.MaxValue, Math.Max(1, Math.Ceiling(waitMs))) : null;
    }

    /// <summary>Fills every bucket, for a fresh start between runs.</summary>
    public void Fill()
    {
        lock (_lock)
        {
            _account?.Fill();
            _partitions.Clear();
        }
    }

    private TokenBucket? PartitionBucket(string? partitionKey)
    {
        if (_partitionRate <= 0 || partitionKey is null)
        {
            return null;
        }

        if (!_partitions.TryGetValue(partitionKey, out var bucket))
        {
            PruneFullBuckets();
            bucket = new TokenBucket(_partitionRate, _partitionRate * _burstSeconds, _timeProvider);
            _partitions.Add(partitionKey, bucket);
        }

        return bucket;
    }

    private void PruneFullBuckets()
    {
        if (_partitions.Count < _pruneAt)
        {
            return;
        }

        foreach (var (key, bucket) in _partitions)
        {
            if (bucket.Available >= bucket.Capacity)
            {
                _partitions.Remove(key);
            }
        }

        _pruneAt = Math.Max(PruneThreshold, _partitions.Count * 2);
    }
}
