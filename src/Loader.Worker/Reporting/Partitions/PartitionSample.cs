using System.IO.Hashing;
using System.Runtime.InteropServices;

namespace Loader.Worker.Reporting.Partitions;

/// <summary>
/// Rows per partition key for the distribution, in bounded memory: a uniform sample of keys by hash (distinct sampling,
/// Gibbons 2001). A key is in the sample when the top <c>level</c> bits of its hash are 0, decided when it first comes,
/// so a sampled key's rows are all counted. Past <c>capacity</c> keys the level rises by one and the keys that no longer
/// qualify leave: about half. Each sampled key then stands for 2^level keys. With no more keys than the capacity the
/// level stays 0 and every count is exact. Not thread-safe: <see cref="PartitionStatistics"/> locks.
/// </summary>
internal sealed class PartitionSample(int capacity)
{
    /// <summary>Sets the sample apart from the key shards' buckets, which take XxHash3 of the same keys unseeded.</summary>
    private const long Seed = 0x5A3D_17C4;

    private readonly Dictionary<ulong, long> _rows = [];
    private int _level;

    /// <summary>How many keys each sampled key stands for.</summary>
    public long Scale => 1L << _level;

    /// <summary>Keys in the sample.</summary>
    public int Count => _rows.Count;

    public void Add(string key, long rows)
    {
        var hash = XxHash3.HashToUInt64(MemoryMarshal.AsBytes(key.AsSpan()), Seed);
        if (!Sampled(hash))
        {
            return;
        }

        CollectionsMarshal.GetValueRefOrAddDefault(_rows, hash, out _) += rows;
        while (_rows.Count > capacity)
        {
            _level++;
            foreach (var sampled in _rows.Keys)
            {
                if (!Sampled(sampled))
                {
                    _rows.Remove(sampled);
                }
            }
        }
    }

    /// <summary>Partitions by their rows, in buckets of powers of two (1, 2–3, 4–7, …) from the first to the last that holds any, scaled up from the sample.</summary>
    public IReadOnlyList<RowsPerPartition> Distribution()
    {
        if (_rows.Count == 0)
        {
            return [];
        }

        var partitions = new long[64];
        var rows = new long[64];
        foreach (var count in _rows.Values)
        {
            var bucket = (int)long.Log2(Math.Max(1, count));
            partitions[bucket] += Scale;
            rows[bucket] += count * Scale;
        }

        var first = Array.FindIndex(partitions, held => held > 0);
        var last = Array.FindLastIndex(partitions, held => held > 0);
        return [.. Enumerable.Range(first, last - first + 1).Select(bucket => new RowsPerPartition(1L << bucket, (1L << (bucket + 1)) - 1, partitions[bucket], rows[bucket]))];
    }

    private bool Sampled(ulong hash) => _level == 0 || hash >> (64 - _level) == 0;
}
