namespace Loader.Worker.Configuration;

/// <summary>Settings of a sharded load (<c>Loader:Shards</c>): where its state and queue live, how the input is cut, how shards are leased.</summary>
internal sealed class ShardOptions
{
    public const long MinTargetBytes = 64 * 1024;

    /// <summary>
    /// Blob folder (a URL ending in <c>/</c>) that holds the load's manifest and, per shard, its state, checkpoint,
    /// report and rejects. One folder per load.
    /// </summary>
    public string? State { get; set; }

    /// <summary>
    /// The Azure Storage queue of shards, e.g. <c>https://acme.queue.core.windows.net/loader-shards</c> (Azurite:
    /// <c>http://127.0.0.1:10001/devstoreaccount1/loader-shards</c>); shards that keep failing move to
    /// <c>&lt;queue&gt;-poison</c>.
    /// </summary>
    public string? Queue { get; set; }

    /// <summary>
    /// <c>Range</c> (default: every row read once; the later row wins per key within a shard) or <c>Key</c> (the later row
    /// wins per key across the whole input; every shard reads the whole input).
    /// </summary>
    public ShardKind By { get; set; } = ShardKind.Range;

    /// <summary>Key shards: how many buckets of partition keys, i.e. shards.</summary>
    public int Count { get; set; } = 8;

    /// <summary>Range shards: a part larger than this is cut into byte ranges of about this size, at record boundaries.</summary>
    public long TargetBytes { get; set; } = 256L * 1024 * 1024;

    /// <summary>
    /// How long a shard taken from the queue stays hidden from other workers; the worker extends it every third of
    /// it while the shard is in progress. A worker that dies gives its shard back after at most this long.
    /// </summary>
    public TimeSpan VisibilityTimeout { get; set; } = TimeSpan.FromMinutes(2);

    /// <summary>A shard taken from the queue this many times without being settled goes to the poison queue.</summary>
    public int MaxDequeues { get; set; } = 5;

    /// <summary>How long a shard whose attempt failed waits before it can be taken again.</summary>
    public TimeSpan RetryDelay { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>How often a worker with nothing to take looks again while other workers still hold shards.</summary>
    public TimeSpan PollInterval { get; set; } = TimeSpan.FromSeconds(5);
}
