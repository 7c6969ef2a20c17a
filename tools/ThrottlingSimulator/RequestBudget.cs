namespace Loader.ThrottlingSimulator;

/// <summary>
/// The budget's answer to a charge: admitted, or how long to wait before the same request would be, and whether it
/// was the request's throughput bucket that refused it (Cosmos DB's sub-status 3212) rather than the budget (3200).
/// </summary>
public readonly record struct BudgetDecision(bool Admitted, int RetryAfterMs, bool ByThroughputBucket = false)
{
    public static BudgetDecision Admit { get; } = new(true, 0);
}

/// <summary>
/// The account's bucket and, when a partition budget is set, one bucket per partition key; when a throughput bucket
/// budget is set, one bucket per throughput bucket a request names (Cosmos DB's <c>x-ms-cosmos-throughput-bucket</c>,
/// a cap on what the requests of one workload may spend). A batch must fit every bucket it touches, and is charged
/// to all of them or to none, so the check and the take share one lock.
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
    private readonly double _throughputBucketRate;
    private readonly Dictionary<string, TokenBucket> _throughputBuckets = new(StringComparer.Ordinal);
    private int _pruneAt = PruneThreshold;

    /// <param name="ruPerSecond">The account's budget; 0 turns it off.</param>
    /// <param name="partitionRuPerSecond">Each partition key's budget; 0 turns it off.</param>
    /// <param name="burstSeconds">Seconds of unspent budget a bucket saves up.</param>
    /// <param name="timeProvider">The clock that refills the buckets.</param>
    /// <param name="throughputBucketRuPerSecond">Each throughput bucket's cap; 0 turns it off.</param>
    public RequestBudget(double ruPerSecond, double partitionRuPerSecond, double burstSeconds, TimeProvider timeProvider, double throughputBucketRuPerSecond = 0)
    {
        ArgumentNullException.ThrowIfNull(timeProvider);
        _timeProvider = timeProvider;
        _partitionRate = partitionRuPerSecond;
        _throughputBucketRate = throughputBucketRuPerSecond;
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

    /// <summary>
    /// Takes <paramref name="cost"/> from the buckets when all of them hold it, otherwise nothing. The throughput
    /// bucket (<paramref name="throughputBucket"/>, when the request names one) is asked first, as its cap is the
    /// narrower one.
    /// </summary>
    public BudgetDecision TryCharge(double cost, string? partitionKey, string? throughputBucket = null)
    {
        lock (_lock)
        {
            var workload = ThroughputBucket(throughputBucket);
            if (Wait(workload?.MillisecondsUntilAvailable(cost) ?? 0) is { } bucketWaitMs)
            {
                return new BudgetDecision(false, bucketWaitMs, ByThroughputBucket: true);
            }

            var partition = PartitionBucket(partitionKey);
            if (WaitMs(cost, partition) is { } waitMs)
            {
                return new BudgetDecision(false, waitMs);
            }

            _account?.Take(cost);
            partition?.Take(cost);
            workload?.Take(cost);
            return BudgetDecision.Admit;
        }
    }

    /// <summary>
    /// Takes <paramref name="cost"/> whether the buckets hold it or not, leaving them in debt if need be: what an
    /// operation cost beyond what it was let in for, known once it ran (a patch, billed by the item it leaves).
    /// </summary>
    public void Spend(double cost, string? partitionKey, string? throughputBucket = null)
    {
        if (cost <= 0)
        {
            return;
        }

        lock (_lock)
        {
            _account?.Take(cost);
            PartitionBucket(partitionKey)?.Take(cost);
            ThroughputBucket(throughputBucket)?.Take(cost);
        }
    }

    /// <summary>
    /// Milliseconds until the buckets would hold <paramref name="cost"/>, taking nothing: what to tell a client whose
    /// request was partly refused (Cosmos DB bulk) about the part refused. 0 when it fits now.
    /// </summary>
    public int MillisecondsUntilAvailable(double cost, string? partitionKey, string? throughputBucket = null)
    {
        lock (_lock)
        {
            return Math.Max(WaitMs(cost, PartitionBucket(partitionKey)) ?? 0, Wait(ThroughputBucket(throughputBucket)?.MillisecondsUntilAvailable(cost) ?? 0) ?? 0);
        }
    }

    private int? WaitMs(double cost, TokenBucket? partition) =>
        Wait(Math.Max(
            _account?.MillisecondsUntilAvailable(cost) ?? 0,
            partition?.MillisecondsUntilAvailable(cost) ?? 0));

    // Rounded up so that a client waiting exactly this long finds the budget there.
    private static int? Wait(double waitMs) => waitMs > 0 ? (int)Math.Min(int.MaxValue, Math.Max(1, Math.Ceiling(waitMs))) : null;

    /// <summary>Fills every bucket, for a fresh start between runs.</summary>
    public void Fill()
    {
        lock (_lock)
        {
            _account?.Fill();
            _partitions.Clear();
            _throughputBuckets.Clear();
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

    /// <summary>The bucket of a throughput bucket a request names; a handful at most (the service allows five), so never pruned.</summary>
    private TokenBucket? ThroughputBucket(string? throughputBucket)
    {
        if (_throughputBucketRate <= 0 || throughputBucket is null)
        {
            return null;
        }

        if (!_throughputBuckets.TryGetValue(throughputBucket, out var bucket))
        {
            bucket = new TokenBucket(_throughputBucketRate, _throughputBucketRate * _burstSeconds, _timeProvider);
            _throughputBuckets.Add(throughputBucket, bucket);
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
