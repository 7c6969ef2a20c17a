using Loader.Abstractions;

namespace Loader.Worker.Reporting.Partitions;

/// <summary>
/// A load's figures per partition key, in memory bounded whatever the number of keys: the keys with the most rows
/// (<see cref="HeavyPartitions"/>, <see cref="TrackedKeys"/> of them) and rows per key for the distribution
/// (<see cref="PartitionSample"/>, <see cref="SampledKeys"/> keys; together well under a megabyte). Fed once per batch
/// when it ends; thread-safe.
/// </summary>
internal sealed class PartitionStatistics
{
    /// <summary>Keys whose counts are kept one by one: the report shows the top 20 of them.</summary>
    public const int TrackedKeys = 1024;

    /// <summary>Keys the distribution is drawn from; exact up to this many keys, a uniform sample beyond.</summary>
    public const int SampledKeys = 16_384;

    /// <summary>Keys the report lists.</summary>
    public const int ReportedKeys = 20;

    private readonly Lock _lock = new();
    private readonly HeavyPartitions _heavy = new(TrackedKeys);
    private readonly PartitionSample _sample = new(SampledKeys);

    /// <summary>Counts a batch of <paramref name="partitionKey"/> that has ended.</summary>
    public void Batch(string partitionKey, in PartitionBatch batch)
    {
        lock (_lock)
        {
            _heavy.Add(partitionKey, batch);
            _sample.Add(partitionKey, batch.Rows);
        }
    }

    /// <summary>The keys with the most rows, the number of keys and the distribution of rows per key; null when no batch was counted.</summary>
    public PartitionsReport? Report()
    {
        lock (_lock)
        {
            if (_sample.Count == 0)
            {
                return null;
            }

            return new PartitionsReport(
                Count: _sample.Count * _sample.Scale,
                Estimated: _sample.Scale > 1,
                Top: [.. _heavy.ByRows().Take(ReportedKeys).Select(Line)],
                RowsPerPartition: _sample.Distribution());
        }
    }

    /// <summary>The held key whose batches were at the service or backing off the longest, or null.</summary>
    public PartitionLine? LongestHeld()
    {
        lock (_lock)
        {
            return _heavy.ByRows().MaxBy(partition => partition.InFlight + partition.Backoff) is { } longest ? Line(longest) : null;
        }
    }

    private static PartitionLine Line(HeavyPartition partition) => new(
        PartitionKeyLevels.Display(partition.Key),
        partition.Rows,
        partition.RowsError,
        partition.Batches,
        Math.Round(partition.InFlight.TotalSeconds, 3),
        Math.Round(partition.Backoff.TotalSeconds, 3),
        partition.Throttled,
        partition.Rejected);
}
