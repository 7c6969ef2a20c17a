using Loader.Abstractions;
using Loader.Worker.Backends.DryRun;

namespace Loader.Worker.Estimate;

/// <summary>
/// The dry run of <c>--estimate</c>: the configured backend's rules with nothing sent (<see cref="DryRunAdapter"/>),
/// counting every batch the pipeline would send by partition key: rows and payload bytes. Going through the real
/// pipeline means the counts are the load's own: rejected and superseded rows left out, batches cut as the load cuts them.
/// </summary>
internal sealed class PartitionCensus(IBackendAdapter rules) : IBackendAdapter
{
    /// <summary>Partition keys counted one by one; past this many, further new keys are counted only in the totals.</summary>
    public const int MaxTrackedPartitions = 1_000_000;

    private readonly DryRunAdapter _dryRun = new(rules);
    private readonly Dictionary<string, PartitionCount> _partitions = new(StringComparer.Ordinal);
    private long _untrackedRows;
    private long _untrackedBytes;
    private long _untrackedBatches;

    public string Name => _dryRun.Name;

    public BackendLimits Limits => _dryRun.Limits;

    /// <summary>Whether more partition keys came than <see cref="MaxTrackedPartitions"/>.</summary>
    public bool Capped { get; private set; }

    public Task PrepareAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public string? CheckPropertyName(string name) => _dryRun.CheckPropertyName(name);

    public EntityInspection Inspect(string partitionKey, string rowKey, ReadOnlySpan<EntityProperty> properties) =>
        _dryRun.Inspect(partitionKey, rowKey, properties);

    public Task<BatchOutcome> WriteBatchAsync(EntityBatch batch, CancellationToken cancellationToken)
    {
        lock (_partitions)
        {
            if (_partitions.TryGetValue(batch.PartitionKey, out var count))
            {
                count.Add(batch);
            }
            else if (_partitions.Count < MaxTrackedPartitions)
            {
                (_partitions[batch.PartitionKey] = new PartitionCount()).Add(batch);
            }
            else
            {
                Capped = true;
                _untrackedRows += batch.Entities.Count;
                _untrackedBytes += batch.PayloadBytes;
                _untrackedBatches++;
            }
        }

        return _dryRun.WriteBatchAsync(batch, cancellationToken);
    }

    /// <summary>Rows, bytes and batches per partition key counted so far.</summary>
    public IReadOnlyDictionary<string, PartitionCount> Partitions
    {
        get
        {
            lock (_partitions)
            {
                return new Dictionary<string, PartitionCount>(_partitions, StringComparer.Ordinal);
            }
        }
    }

    /// <summary>What went to keys beyond <see cref="MaxTrackedPartitions"/>.</summary>
    public (long Rows, long Bytes, long Batches) Untracked
    {
        get
        {
            lock (_partitions)
            {
                return (_untrackedRows, _untrackedBytes, _untrackedBatches);
            }
        }
    }

    /// <summary>The rules adapter belongs to the host, which disposes it.</summary>
    public ValueTask DisposeAsync() => ValueTask.CompletedTask;
}

/// <summary>What one partition key would receive.</summary>
internal sealed class PartitionCount
{
    public long Rows { get; private set; }

    public long Bytes { get; private set; }

    public long Batches { get; private set; }

    internal void Add(EntityBatch batch)
    {
        Rows += batch.Entities.Count;
        Bytes += batch.PayloadBytes;
        Batches++;
    }
}
