using System.IO.Hashing;
using System.Text;
using Loader.Worker.Checkpoints;
using Loader.Worker.Mapping;

namespace Loader.Worker.Pipeline;

/// <summary>
/// What a key shard keeps of the records it reads: the rows whose partition key falls in its bucket. A key's bucket is
/// the XxHash3 of its UTF-8 bytes modulo the number of buckets, the same in every process, so all rows of a key meet in
/// one shard in input order. Rows that cannot be mapped (and malformed records) have no trustworthy key: shard 0
/// rejects them, once. Thread-safe: records are mapped on several threads. The read stage applies it, so it lives with
/// the pipeline; a key shard's <see cref="IShardScope"/> hands it in.
/// </summary>
internal sealed class KeyBucketFilter(int bucket, int buckets)
{
    /// <summary>Whether this shard rejects the rows that cannot be mapped.</summary>
    public bool OwnsRejects => bucket == 0;

    /// <summary>The bucket of a partition key among <paramref name="buckets"/>.</summary>
    public static int BucketOf(string partitionKey, int buckets)
    {
        Span<byte> bytes = stackalloc byte[256];
        var count = Encoding.UTF8.GetMaxByteCount(partitionKey.Length);
        var utf8 = count <= bytes.Length ? bytes[..Encoding.UTF8.GetBytes(partitionKey, bytes)] : Encoding.UTF8.GetBytes(partitionKey);
        return (int)(XxHash3.HashToUInt64(utf8) % (ulong)buckets);
    }

    /// <summary>
    /// A mapped record as this shard sees it: its own rows as they are (or skipped, when <paramref name="window"/> shows
    /// them settled by an earlier run of the shard), other shards' rows as <see cref="MapResult.Other"/>.
    /// </summary>
    public MapResult Map(MapResult mapped, ResumeWindow? window)
    {
        var mine = mapped.Entity is { } entity ? BucketOf(entity.PartitionKey, buckets) == bucket : OwnsRejects;
        return !mine ? MapResult.Other(mapped.Origin)
            : window?.Settled(mapped.Origin.Record) == true ? MapResult.Skip(mapped.Origin)
            : mapped;
    }
}
