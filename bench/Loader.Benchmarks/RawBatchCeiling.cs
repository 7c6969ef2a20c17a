using Loader.Abstractions;
using Loader.Worker.Backends.Tables;

namespace Loader.Benchmarks;

/// <summary>
/// The most the service takes from this machine in entity group transactions: the loader's own batches, sent
/// straight through its Tables adapter (with the loader's default writer) with P in flight and no reading, mapping, ordering, bookkeeping or retries.
/// The loader can come close to it, not beat it.
/// </summary>
internal static class RawBatchCeiling
{
    public static Task<WriteTiming> WriteAsync(TablesAdapter adapter, IReadOnlyList<EntityBatch> batches, int parallel, CancellationToken cancellationToken)
    {
        return TimedWriter.RunAsync(batches, parallel, batch => batch.Entities.Count, async (batch, token) =>
        {
            var outcome = await adapter.WriteBatchAsync(batch, token);
            return outcome.Status == BatchStatus.Written ? null : outcome.Error ?? outcome.Status.ToString();
        }, cancellationToken);
    }
}
