using Loader.Abstractions;

namespace Loader.Worker.Batching;

/// <summary>Rows of one partition key waiting for their batch to fill.</summary>
internal sealed class PendingBatch(string partitionKey, long firstRecord, int capacity)
{
    // Up to this many rows a linear scan finds a repeated row key faster than a hash set costs to build.
    private const int LinearScanLimit = 16;

    private Dictionary<string, int>? _indexByRowKey;

    public string PartitionKey { get; } = partitionKey;

    public long FirstRecord { get; } = firstRecord;

    public List<LoadEntity> Entities { get; } = new(Math.Min(capacity, 8));

    public long PayloadBytes { get; private set; }

    /// <summary>Set once the batch has left the buffer; the eviction queue skips it then.</summary>
    public bool Emitted { get; set; }

    /// <summary>For an entity that replaced an earlier row with the same keys, that earlier row (by reference).</summary>
    public Dictionary<LoadEntity, LoadEntity>? Superseded { get; private set; }

    public void RecordSuperseded(LoadEntity later, LoadEntity earlier)
    {
        Superseded ??= new Dictionary<LoadEntity, LoadEntity>(ReferenceEqualityComparer.Instance);
        Superseded[later] = earlier;
    }

    public int IndexOf(string rowKey)
    {
        if (_indexByRowKey is not null)
        {
            return _indexByRowKey.TryGetValue(rowKey, out var index) ? index : -1;
        }

        for (var i = 0; i < Entities.Count; i++)
        {
            if (string.Equals(Entities[i].RowKey, rowKey, StringComparison.Ordinal))
            {
                return i;
            }
        }

        return -1;
    }

    public void Add(LoadEntity entity)
    {
        Entities.Add(entity);
        PayloadBytes += entity.PayloadBytes;
        if (_indexByRowKey is not null)
        {
            _indexByRowKey[entity.RowKey] = Entities.Count - 1;
        }
        else if (Entities.Count > LinearScanLimit)
        {
            _indexByRowKey = new Dictionary<string, int>(Entities.Count * 2, StringComparer.Ordinal);
            for (var i = 0; i < Entities.Count; i++)
            {
                _indexByRowKey[Entities[i].RowKey] = i;
            }
        }
    }

    public void RemoveAt(int index)
    {
        PayloadBytes -= Entities[index].PayloadBytes;
        Entities.RemoveAt(index);
        if (_indexByRowKey is not null)
        {
            _indexByRowKey.Clear();
            for (var i = 0; i < Entities.Count; i++)
            {
                _indexByRowKey[Entities[i].RowKey] = i;
            }
        }
    }

    public void Replace(int index, LoadEntity entity)
    {
        PayloadBytes += entity.PayloadBytes - Entities[index].PayloadBytes;
        Entities[index] = entity;
    }
}
