using System.ComponentModel.DataAnnotations;
using Loader.Abstractions;

namespace Loader.Worker.Configuration;

/// <summary>Settings of a sharded load (<c>Loader:Shards</c>): where its state and queue live, how the input is cut, how shards are leased.</summary>
internal sealed class ShardOptions
{
    /// <summary>
    /// Blob folder (a URL ending in <c>/</c>) that holds the load's manifest and, per shard, its state, checkpoint,
    /// report and rejects. One folder per load.
    /// </summary>
    [Accepts("a blob folder URL ending in /; required by plan, work and status")]
    public string? State { get; set; }

    /// <summary>
    /// The Azure Storage queue of shards, e.g. <c>https://acme.queue.core.windows.net/loader-shards</c> (Azurite:
    /// <c>http://127.0.0.1:10001/devstoreaccount1/loader-shards</c>); shards that keep failing move to
    /// <c>&lt;queue&gt;-poison</c>.
    /// </summary>
    [Accepts("an Azure Storage queue URL; required by plan, work and status")]
    public string? Queue { get; set; }

    /// <summary>
    /// <c>Range</c> (default: every row read once; the later row wins per key within a shard) or <c>Key</c> (the later row
    /// wins per key across the whole input; every shard reads the whole input).
    /// </summary>
    public ShardKind By { get; set; } = ShardKind.Range;

    /// <summary>Key shards: how many buckets of partition keys, i.e. shards.</summary>
    // The loader's own ceiling on buckets of keys (each key shard reads the whole input).
    [Range(1, 1000)]
    public int Count { get; set; } = 8;

    /// <summary>Range shards: a part larger than this is cut into byte ranges of about this size, at record boundaries.</summary>
    // The loader's own floor (64 KiB): a smaller part costs more requests than it saves; no ceiling but the type's.
    [Range(typeof(long), "65536", "9223372036854775807")]
    public long TargetBytes { get; set; } = 256L * 1024 * 1024;

    /// <summary>
    /// How long a shard taken from the queue stays hidden from other workers; the worker extends it every third of
    /// it while the shard is in progress. A worker that dies gives its shard back after at most this long.
    /// </summary>
    // The queue service hides a message for at most 7 days; a shard's blob lease lasts 5 s less than this and the
    // blob service leases for at least 15 s.
    [Range(typeof(TimeSpan), "00:00:20", SettingLimits.LongestQueueVisibility)]
    public TimeSpan VisibilityTimeout { get; set; } = TimeSpan.FromMinutes(2);

    /// <summary>A shard taken from the queue this many times without being settled goes to the poison queue.</summary>
    // The loader's own ceiling: a shard failing this often is not going to succeed.
    [Range(1, 100)]
    public int MaxDequeues { get; set; } = 5;

    /// <summary>How long a shard whose attempt failed waits before it can be taken again.</summary>
    // Handed to the queue service as the message's visibility timeout: 0 to 7 days.
    [Range(typeof(TimeSpan), "00:00:00", SettingLimits.LongestQueueVisibility)]
    public TimeSpan RetryDelay { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>How often a worker with nothing to take looks again while other workers still hold shards.</summary>
    // Handed to Task.Delay.
    [Range(typeof(TimeSpan), SettingLimits.OneMillisecond, SettingLimits.LongestTimer)]
    public TimeSpan PollInterval { get; set; } = TimeSpan.FromSeconds(5);
}
