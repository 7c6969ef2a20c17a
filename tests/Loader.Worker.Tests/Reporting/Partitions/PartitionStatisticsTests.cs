using Loader.Worker.Reporting.Partitions;

namespace Loader.Worker.Tests.Reporting.Partitions;

/// <summary>The per-partition figures: exact for a load of few keys, bounded and still right about the big keys for a load of very many.</summary>
public sealed class PartitionStatisticsTests
{
    private static PartitionBatch Batch(long rows, int throttled = 0) => new(rows, TimeSpan.FromMilliseconds(10), TimeSpan.FromMilliseconds(throttled * 100), throttled, 0);

    [Fact]
    public void With_few_keys_every_figure_is_exact_the_top_ordered_by_rows_and_the_distribution_in_doubling_buckets()
    {
        var partitions = new PartitionStatistics();
        foreach (var (key, rows) in new[] { ("a", 100L), ("b", 3L), ("a", 100L), ("c", 1L), ("a", 57L), ("d", 40L) })
        {
            partitions.Batch(key, Batch(rows, throttled: key == "a" ? 1 : 0));
        }

        var report = partitions.Report()!;

        Assert.Equal((4L, false), (report.Count, report.Estimated));
        Assert.Equal(
            [new PartitionLine("a", 257, 0, 3, 0.03, 0.3, 3, 0), new PartitionLine("d", 40, 0, 1, 0.01, 0, 0, 0), new PartitionLine("b", 3, 0, 1, 0.01, 0, 0, 0), new PartitionLine("c", 1, 0, 1, 0.01, 0, 0, 0)],
            report.Top);
        Assert.Equal(
            [new RowsPerPartition(1, 1, 1, 1), new(2, 3, 1, 3), new(4, 7, 0, 0), new(8, 15, 0, 0), new(16, 31, 0, 0), new(32, 63, 1, 40), new(64, 127, 0, 0), new(128, 255, 0, 0), new(256, 511, 1, 257)],
            report.RowsPerPartition);
        Assert.Equal("a", partitions.LongestHeld()!.PartitionKey);
    }

    [Fact]
    public void A_load_without_batches_has_no_partitions_view()
    {
        Assert.Null(new PartitionStatistics().Report());
        Assert.Null(new PartitionStatistics().LongestHeld());
    }

    [Fact]
    public void Past_its_capacity_the_summary_keeps_the_big_keys_exact_and_pushes_out_the_small_ones_with_their_possible_overcount()
    {
        var heavy = new HeavyPartitions(capacity: 8);
        // Three big keys, then 1,000 small keys of one row each with a batch of a big key after every tenth.
        foreach (var big in new[] { "big0", "big1", "big2" })
        {
            heavy.Add(big, Batch(100));
        }

        for (var i = 0; i < 1_000; i++)
        {
            heavy.Add($"small{i}", Batch(1));
            if (i % 10 == 9)
            {
                heavy.Add($"big{i / 10 % 3}", Batch(100));
            }
        }

        var held = heavy.ByRows().ToList();

        Assert.Equal(8, held.Count);
        Assert.Equal([("big0", 3_500L, 0L, 35L), ("big1", 3_400, 0, 34), ("big2", 3_400, 0, 34)], held.Take(3).Select(big => (big.Key, big.Rows, big.RowsError, big.Batches)));
        // Each small key took the place of the least, starting from its count: one row of its own, the rest possibly others'.
        Assert.All(held.Skip(3), small => Assert.True(small.RowsError > 0 && small.Rows - small.RowsError == 1, $"{small.Key}: {small.Rows} rows, error {small.RowsError}"));
        Assert.Equal(1_003 - 8, heavy.Evictions);
    }

    [Fact]
    public void Past_its_capacity_the_sample_estimates_the_keys_and_their_distribution_within_a_few_percent_in_bounded_memory()
    {
        var sample = new PartitionSample(capacity: 4_096);
        for (var i = 0; i < 100_000; i++)
        {
            sample.Add($"k{i}", 1);
        }

        for (var i = 0; i < 1_000; i++)
        {
            sample.Add($"big{i}", 1_000);
        }

        Assert.True(sample.Count <= 4_096, $"{sample.Count} keys held");
        Assert.True(sample.Scale > 1);
        var estimated = sample.Count * sample.Scale;
        Assert.InRange(estimated, 101_000 * 0.95, 101_000 * 1.05);
        var distribution = sample.Distribution();
        Assert.InRange(distribution[0].Partitions, 100_000 * 0.95, 100_000 * 1.05); // the one-row keys
        Assert.Equal((512L, 1_023L), (distribution[^1].FromRows, distribution[^1].ToRows));
        Assert.InRange(distribution[^1].Partitions, 1_000 * 0.5, 1_000 * 1.5); // few keys: a coarser estimate
        Assert.Equal(distribution[^1].Partitions * 1_000, distribution[^1].Rows);
    }
}
