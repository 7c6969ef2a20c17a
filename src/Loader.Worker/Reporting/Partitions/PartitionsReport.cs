namespace Loader.Worker.Reporting.Partitions;

/// <summary>The report's view of the partitions: how many there were, the ones with the most rows, and how rows spread over them.</summary>
/// <param name="Count">Partition keys the load sent batches of.</param>
/// <param name="Estimated">
/// Whether <paramref name="Count"/> and <paramref name="RowsPerPartition"/> are scaled up from a uniform sample of keys
/// (more than <see cref="PartitionStatistics.SampledKeys"/> keys); exact when false.
/// </param>
/// <param name="Top">The keys with the most rows, most first (at most <see cref="PartitionStatistics.ReportedKeys"/>).</param>
/// <param name="RowsPerPartition">Partitions by their rows, in buckets of powers of two.</param>
internal sealed record PartitionsReport(long Count, bool Estimated, IReadOnlyList<PartitionLine> Top, IReadOnlyList<RowsPerPartition> RowsPerPartition);

/// <summary>One partition key and what its batches came to.</summary>
/// <param name="PartitionKey">The key as the report shows it (the levels of a hierarchical key joined).</param>
/// <param name="Rows">Rows its batches carried (as batched: a row superseded inside a batch included).</param>
/// <param name="RowsError">How many of <paramref name="Rows"/> may be other keys' (0: every figure of the line is exact; see <see cref="HeavyPartitions"/>).</param>
/// <param name="Batches">Its batches.</param>
/// <param name="InFlightSeconds">Its requests' time at the service, retries included.</param>
/// <param name="BackoffSeconds">Its batches' waits before retries.</param>
/// <param name="Throttled">Throttled answers (429, 503) to its requests.</param>
/// <param name="Rejected">Its rows the service refused.</param>
internal sealed record PartitionLine(string PartitionKey, long Rows, long RowsError, long Batches, double InFlightSeconds, double BackoffSeconds, long Throttled, long Rejected);

/// <summary>Partitions that had from <paramref name="FromRows"/> to <paramref name="ToRows"/> rows, and the rows they had together.</summary>
internal sealed record RowsPerPartition(long FromRows, long ToRows, long Partitions, long Rows);
