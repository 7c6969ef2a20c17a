namespace Loader.Worker.Reporting.Partitions;

/// <summary>
/// The partition keys with the most rows, in bounded memory however many keys a load has: the Space-Saving summary
/// (Metwally, Agrawal and El Abbadi, 2005), weighted by rows. It holds <c>capacity</c> keys; a new key, once it is
/// full, takes the place of the one with the fewest rows and starts from that count, which it records as its possible
/// overcount (<see cref="HeavyPartition.RowsError"/>). Every key with more than 1/<c>capacity</c> of the rows is held,
/// and a key never pushed out has exact counts (an error of 0): with no more keys than <c>capacity</c>, all of them.
/// A min-heap on rows finds the one to push out in O(log capacity). Not thread-safe: <see cref="PartitionStatistics"/> locks.
/// </summary>
internal sealed class HeavyPartitions(int capacity)
{
    private readonly Dictionary<string, HeavyPartition> _byKey = new(capacity, StringComparer.Ordinal);
    private readonly HeavyPartition[] _heap = new HeavyPartition[capacity];
    private int _count;

    /// <summary>Keys pushed out to make room for others (0: every count is exact).</summary>
    public long Evictions { get; private set; }

    public void Add(string key, in PartitionBatch batch)
    {
        if (_byKey.TryGetValue(key, out var held))
        {
            held.Add(batch);
            SiftDown(held.Slot);
            return;
        }

        if (_count < _heap.Length)
        {
            held = new HeavyPartition(key) { Slot = _count };
            held.Add(batch);
            _heap[_count++] = held;
            _byKey[key] = held;
            SiftUp(held.Slot);
            return;
        }

        var least = _heap[0];
        _byKey.Remove(least.Key);
        least.Replace(key);
        least.Add(batch);
        _byKey[key] = least;
        SiftDown(0);
        Evictions++;
    }

    /// <summary>The held keys, most rows first.</summary>
    public IEnumerable<HeavyPartition> ByRows() => _heap.Take(_count).OrderByDescending(partition => partition.Rows).ThenBy(partition => partition.Key, StringComparer.Ordinal);

    private void SiftUp(int slot)
    {
        while (slot > 0)
        {
            var parent = (slot - 1) / 2;
            if (_heap[parent].Rows <= _heap[slot].Rows)
            {
                return;
            }

            Swap(slot, parent);
            slot = parent;
        }
    }

    private void SiftDown(int slot)
    {
        while (true)
        {
            var smallest = slot;
            var left = (2 * slot) + 1;
            if (left < _count && _heap[left].Rows < _heap[smallest].Rows)
            {
                smallest = left;
            }

            if (left + 1 < _count && _heap[left + 1].Rows < _heap[smallest].Rows)
            {
                smallest = left + 1;
            }

            if (smallest == slot)
            {
                return;
            }

            Swap(slot, smallest);
            slot = smallest;
        }
    }

    private void Swap(int a, int b)
    {
        (_heap[a], _heap[b]) = (_heap[b], _heap[a]);
        _heap[a].Slot = a;
        _heap[b].Slot = b;
    }
}

/// <summary>One key the summary holds, with what its batches came to since it was taken in.</summary>
internal sealed class HeavyPartition(string key)
{
    public string Key { get; private set; } = key;

    /// <summary>Its rows, at most <see cref="RowsError"/> more than it really had.</summary>
    public long Rows { get; private set; }

    /// <summary>How many of <see cref="Rows"/> may be another key's: the count of the key it replaced (0: exact).</summary>
    public long RowsError { get; private set; }

    public long Batches { get; private set; }

    public TimeSpan InFlight { get; private set; }

    public TimeSpan Backoff { get; private set; }

    public long Throttled { get; private set; }

    public long Rejected { get; private set; }

    /// <summary>Its place in the heap.</summary>
    internal int Slot { get; set; }

    internal void Add(in PartitionBatch batch)
    {
        Rows += batch.Rows;
        Batches++;
        InFlight += batch.InFlight;
        Backoff += batch.Backoff;
        Throttled += batch.Throttled;
        Rejected += batch.Rejected;
    }

    /// <summary>Takes in <paramref name="newKey"/> in this key's place: its rows counted from this one's, as the summary's error bound.</summary>
    internal void Replace(string newKey)
    {
        Key = newKey;
        RowsError = Rows;
        Batches = 0;
        InFlight = TimeSpan.Zero;
        Backoff = TimeSpan.Zero;
        Throttled = 0;
        Rejected = 0;
    }
}
