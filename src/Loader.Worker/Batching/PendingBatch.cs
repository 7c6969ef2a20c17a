using Loader.Abstractions;

namespace Loader.Worker.Batching;

/// <summary>Rows of one partition key waiting for their batch to fill.</summary>
internal sealed class PendingBatch(string partitionKey, int partitionKeyHash, long firstRecord, int capacity, long openedAt)
{
    // Row-key hashes beside the entities, so a repeated key is found by a vectorized scan of ints and a string
    // comparison only where a hash matches: no per-batch dictionary to allocate and fill for every row.
    private int[] _hashes = new int[Math.Min(capacity, 8)];

    // The rows' input records, in the same order: the dispatcher settles them and finds the highest from these, not
    // from the entities, which by then left this core's cache.
    private long[] _records = new long[Math.Min(capacity, 8)];

    public string PartitionKey { get; } = partitionKey;

    /// <summary>The partition key's hash (<see cref="RowMeasure.KeyHash"/>).</summary>
    public int PartitionKeyHash { get; } = partitionKeyHash;

    public long FirstRecord { get; } = firstRecord;

    /// <summary>When the batch opened (a <see cref="TimeProvider"/> timestamp): its age decides when it lingered long enough.</summary>
    public long OpenedAt { get; } = openedAt;

    public List<LoadEntity> Entities { get; } = new(Math.Min(capacity, 8));

    public long PayloadBytes { get; private set; }

    /// <summary>The input records of <see cref="Entities"/>, in their order.</summary>
    public ReadOnlyMemory<long> Records => _records.AsMemory(0, Entities.Count);

    /// <summary>The memory the waiting rows hold (<see cref="EntityFootprint"/>).</summary>
    public long FootprintBytes { get; private set; }

    /// <summary>Set once the batch has left the buffer; the eviction queue skips it then.</summary>
    public bool Emitted { get; set; }

    /// <summary>For an entity that replaced an earlier row with the same keys, that earlier row (by reference).</summary>
    public Dictionary<LoadEntity, LoadEntity>? Superseded { get; private set; }

    public void RecordSuperseded(LoadEntity later, LoadEntity earlier)
    {
        Superseded ??= new Dictionary<LoadEntity, LoadEntity>(ReferenceEqualityComparer.Instance);
        Superseded[later] = earlier;
    }

    /// <summary>The place of the row with <paramref name="rowKey"/>, whose hash is <paramref name="hash"/>; -1 when none waits.</summary>
    public int IndexOf(string rowKey, int hash)
    {
        var hashes = _hashes.AsSpan(0, Entities.Count);
        var start = 0;
        while (hashes[start..].IndexOf(hash) is var found && found >= 0)
        {
            var index = start + found;
            if (string.Equals(Entities[index].RowKey, rowKey, StringComparison.Ordinal))
            {
                return index;
            }

            start = index + 1;
        }

        return -1;
    }

    /// <summary>Appends a row, <paramref name="measure"/> its measure; returns how much its footprint grew the batch's.</summary>
    public long Add(LoadEntity entity, RowMeasure measure)
    {
        if (Entities.Count == _hashes.Length)
        {
            // 8, 32, then the batch's capacity: a key with more than a few rows usually fills its batch, and doubling
            // all the way left two and a half times a full batch's slots behind as garbage.
            var grown = Math.Min(capacity, _hashes.Length < 32 ? 32 : capacity);
            grown = grown > _hashes.Length ? grown : _hashes.Length * 2;
            Array.Resize(ref _hashes, grown);
            Array.Resize(ref _records, grown);
            Entities.Capacity = grown;
        }

        _hashes[Entities.Count] = measure.RowKeyHash;
        _records[Entities.Count] = entity.Origin.Record;
        Entities.Add(entity);
        PayloadBytes += entity.PayloadBytes;
        FootprintBytes += measure.FootprintBytes;
        return measure.FootprintBytes;
    }

    /// <summary>Takes a row out; returns the change of the batch's footprint (negative).</summary>
    public long RemoveAt(int index)
    {
        var footprint = EntityFootprint.Of(Entities[index]);
        PayloadBytes -= Entities[index].PayloadBytes;
        FootprintBytes -= footprint;
        Entities.RemoveAt(index);
        Array.Copy(_hashes, index + 1, _hashes, index, Entities.Count - index);
        Array.Copy(_records, index + 1, _records, index, Entities.Count - index);
        return -footprint;
    }

    /// <summary>Puts a row in another's place; returns the change of the batch's footprint.</summary>
    public long Replace(int index, LoadEntity entity)
    {
        var change = EntityFootprint.Of(entity) - EntityFootprint.Of(Entities[index]);
        PayloadBytes += entity.PayloadBytes - Entities[index].PayloadBytes;
        FootprintBytes += change;
        Entities[index] = entity;
        _hashes[index] = RowMeasure.KeyHash(entity.RowKey);
        _records[index] = entity.Origin.Record;
        return change;
    }
}
