using Loader.Abstractions;

namespace Loader.Worker.Batching;

/// <summary>
/// Groups rows by partition key into batches within the backend's limits. A full batch leaves at once; partial
/// batches wait in a buffer bounded by <see cref="BatchingPolicy.MaxBufferedBytes"/> (and <see cref="BatchingPolicy.MaxBufferedRows"/>), and when it is full the
/// oldest partial batch leaves as it is, so a million distinct keys never means a million waiting batches. A
/// partial batch older than <see cref="BatchingPolicy.MaxBatchDelay"/> leaves as it is too (see <see cref="EmitExpired"/>),
/// so a rare key's row never waits for the end of the input. A repeated key inside one batch is resolved by the write mode (see <see cref="DuplicateResolution"/>).
/// Single-threaded: one pipeline stage owns it.
/// </summary>
internal sealed class PartitionBatcher(BatchingPolicy policy, Func<LoadEntity, EntityInspection> inspect, TimeProvider? timeProvider = null)
{
    private readonly TimeProvider _time = timeProvider ?? TimeProvider.System;

    private readonly Dictionary<HashedKey, PendingBatch> _pending = [];

    // Partial batches in the order they were opened: the head is the oldest. Emitted ones are skipped lazily, and
    // dropped whenever they outnumber the waiting ones: each holds its rows, and with few partition keys the
    // buffer never fills, so nothing else would ever take them out.
    private Queue<PendingBatch> _age = new();
    private long _sequence;

    /// <summary>Rows waiting in partial batches.</summary>
    public int BufferedRows { get; private set; }

    /// <summary>The memory the rows waiting in partial batches hold (<see cref="EntityFootprint"/>).</summary>
    public long BufferedBytes { get; private set; }

    /// <summary>Partition keys with a partial batch waiting.</summary>
    public int PendingPartitions => _pending.Count;

    /// <summary>Batches the age queue holds, emitted ones included (they are the memory the queue keeps alive).</summary>
    internal int QueuedBatches => _age.Count;

    /// <summary>Adds a row; batches that become ready are appended to <paramref name="ready"/>. Returns the duplicate resolved, if the row repeated a waiting key.</summary>
    public DuplicateKey? Add(LoadEntity entity, ICollection<ReadyBatch> ready) => Add(entity, RowMeasure.Of(entity), ready);

    /// <summary>Adds a row measured on its mapping thread (<see cref="RowMeasure"/>); otherwise as <see cref="Add(LoadEntity, ICollection{ReadyBatch})"/>.</summary>
    public DuplicateKey? Add(LoadEntity entity, RowMeasure measure, ICollection<ReadyBatch> ready)
    {
        if (_pending.TryGetValue(new HashedKey(entity.PartitionKey, measure.PartitionKeyHash), out var batch))
        {
            var existing = batch.IndexOf(entity.RowKey, measure.RowKeyHash);
            if (existing >= 0)
            {
                if (ResolveDuplicate(batch, existing, entity, ready) is { } resolved)
                {
                    return resolved;
                }

                // Merge could not fold the rows into one operation: the waiting batch goes first, the row starts the next.
                Emit(batch, ready);
                batch = Open(entity, measure);
            }
            else if (batch.Entities.Count >= policy.MaxOperations || batch.PayloadBytes + entity.PayloadBytes > policy.MaxPayloadBytes)
            {
                Emit(batch, ready);
                batch = Open(entity, measure);
            }
        }
        else
        {
            batch = Open(entity, measure);
        }

        Append(batch, entity, measure, ready);
        return null;
    }

    /// <summary>
    /// Emits the partial batches that have waited <see cref="BatchingPolicy.MaxBatchDelay"/> or longer. Batches open in
    /// time order, so only the head of the age queue needs looking at: cheap enough to call for every chunk of rows.
    /// </summary>
    public void EmitExpired(ICollection<ReadyBatch> ready)
    {
        if (policy.MaxBatchDelay is not { } delay)
        {
            return;
        }

        var now = _time.GetTimestamp();
        while (_age.TryPeek(out var oldest))
        {
            if (!oldest.Emitted && _time.GetElapsedTime(oldest.OpenedAt, now) < delay)
            {
                return;
            }

            _age.Dequeue();
            if (!oldest.Emitted)
            {
                Emit(oldest, ready);
            }
        }
    }

    /// <summary>Emits every partial batch, oldest first: the end of the input.</summary>
    public void Flush(ICollection<ReadyBatch> ready)
    {
        while (_pending.Count > 0)
        {
            EmitOldest(ready);
        }
    }

    private void Append(PendingBatch batch, LoadEntity entity, RowMeasure measure, ICollection<ReadyBatch> ready)
    {
        BufferedBytes += batch.Add(entity, measure);
        BufferedRows++;
        if (batch.Entities.Count >= policy.MaxOperations)
        {
            Emit(batch, ready);
        }

        while (BufferedRows > policy.MaxBufferedRows || BufferedBytes > policy.MaxBufferedBytes)
        {
            EmitOldest(ready);
        }
    }

    private DuplicateKey? ResolveDuplicate(PendingBatch batch, int index, LoadEntity later, ICollection<ReadyBatch> ready)
    {
        var earlier = batch.Entities[index];
        switch (policy.Mode)
        {
            case WriteMode.Insert:
                return new DuplicateKey(earlier, later, DuplicateResolution.LaterRejected);
            case WriteMode.Merge:
                var merged = Merge(earlier, later);
                var inspection = inspect(merged);
                if (!inspection.IsValid || batch.PayloadBytes - earlier.PayloadBytes + inspection.PayloadBytes > policy.MaxPayloadBytes)
                {
                    return null;
                }

                var folded = merged with { PayloadBytes = inspection.PayloadBytes };
                BufferedBytes += batch.Replace(index, folded);
                batch.RecordSuperseded(folded, earlier);
                return new DuplicateKey(earlier, later, DuplicateResolution.Merged);
            default:
                if (batch.PayloadBytes - earlier.PayloadBytes + later.PayloadBytes > policy.MaxPayloadBytes)
                {
                    // The later row does not fit where the earlier stood: send the others, start afresh with it.
                    BufferedBytes += batch.RemoveAt(index);
                    BufferedRows--;
                    Emit(batch, ready);
                    var measure = RowMeasure.Of(later);
                    var next = Open(later, measure, batch.FirstRecord);
                    next.RecordSuperseded(later, earlier);
                    Append(next, later, measure, ready);
                }
                else
                {
                    BufferedBytes += batch.Replace(index, later);
                    batch.RecordSuperseded(later, earlier);
                }

                return new DuplicateKey(earlier, later, DuplicateResolution.LaterReplacesEarlier);
        }
    }

    /// <summary>Two merges applied in order equal one merge of their union with the later values winning.</summary>
    internal static LoadEntity Merge(LoadEntity earlier, LoadEntity later)
    {
        var properties = new List<EntityProperty>(earlier.Properties.Count + later.Properties.Count);
        var laterNames = new HashSet<string>(later.Properties.Select(p => p.Name), StringComparer.Ordinal);
        properties.AddRange(earlier.Properties.Where(p => !laterNames.Contains(p.Name)));
        properties.AddRange(later.Properties);
        return later with { Properties = properties };
    }

    /// <param name="first">The row that opens the batch.</param>
    /// <param name="measure">Its measure.</param>
    /// <param name="firstRecord">The lowest record the batch stands for, when a superseded row older than <paramref name="first"/> is folded into it.</param>
    private PendingBatch Open(LoadEntity first, RowMeasure measure, long? firstRecord = null)
    {
        var batch = new PendingBatch(first.PartitionKey, measure.PartitionKeyHash, firstRecord ?? first.Origin.Record, policy.MaxOperations, _time.GetTimestamp());
        _pending[new HashedKey(first.PartitionKey, measure.PartitionKeyHash)] = batch;
        if (_age.Count >= (2 * _pending.Count) + 64)
        {
            _age = new Queue<PendingBatch>(_age.Where(waiting => !waiting.Emitted)); // amortized O(1) per batch
        }

        _age.Enqueue(batch);
        return batch;
    }

    private void EmitOldest(ICollection<ReadyBatch> ready)
    {
        while (_age.TryDequeue(out var oldest))
        {
            if (!oldest.Emitted)
            {
                Emit(oldest, ready);
                return;
            }
        }
    }

    private void Emit(PendingBatch batch, ICollection<ReadyBatch> ready)
    {
        batch.Emitted = true;
        var key = new HashedKey(batch.PartitionKey, batch.PartitionKeyHash);
        if (_pending.TryGetValue(key, out var current) && ReferenceEquals(current, batch))
        {
            _pending.Remove(key);
        }

        BufferedRows -= batch.Entities.Count;
        BufferedBytes -= batch.FootprintBytes;
        if (batch.Entities.Count == 0)
        {
            return;
        }

        ready.Add(new ReadyBatch(new EntityBatch(batch.PartitionKey, batch.Entities, policy.Mode), ++_sequence, batch.FirstRecord, batch.Superseded, batch.Records));
    }

    /// <summary>A partition key with its hash, taken from the row's measure rather than computed again on this thread.</summary>
    private readonly struct HashedKey(string key, int hash) : IEquatable<HashedKey>
    {
        private readonly string _key = key;
        private readonly int _hash = hash;

        public bool Equals(HashedKey other) => _hash == other._hash && string.Equals(_key, other._key, StringComparison.Ordinal);

        public override bool Equals(object? obj) => obj is HashedKey other && Equals(other);

        public override int GetHashCode() => _hash;
    }
}
