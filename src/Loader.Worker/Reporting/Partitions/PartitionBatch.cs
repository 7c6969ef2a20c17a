namespace Loader.Worker.Reporting.Partitions;

/// <summary>What one batch of a partition key came to, counted once the batch has ended.</summary>
/// <param name="Rows">The rows the batch carried as batched (a row it superseded included).</param>
/// <param name="InFlight">Its requests' time at the service, retries included.</param>
/// <param name="Backoff">Its waits before retries.</param>
/// <param name="Throttled">Throttled answers (429, 503) its requests got.</param>
/// <param name="Rejected">Its rows the service refused (into the rejects file).</param>
internal readonly record struct PartitionBatch(long Rows, TimeSpan InFlight, TimeSpan Backoff, int Throttled, int Rejected);
