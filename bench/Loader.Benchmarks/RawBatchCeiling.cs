using Loader.Abstractions;
using Loader.Worker.Backends.Tables;

namespace Loader.Benchmarks;

/// <summary>
/// The most the service takes from this machine in entity group transactions: the loader's own batches, sent
/// straight through its REST client with P in flight and no reading, mapping, ordering, bookkeeping or retries.
/// The loader can come close to it, not beat it.
/// </summary>
public static class RawBatchCeiling
{
    public static Task<WriteTiming> WriteAsync(TableRestClient client, IReadOnlyList<EntityBatch> batches, int parallel, CancellationToken cancellationToken)
    {
        var content = new TableTransactionContent(client.Endpoint, FlightSchema.Table);
        return TimedWriter.RunAsync(batches, parallel, batch => batch.Entities.Count, async (batch, token) =>
        {
            var result = await client.SubmitTransactionAsync(content, batch, token);

            // A 202 can still carry a refused operation, which writes nothing: the count afterwards catches that.
            return result.StatusCode == 202 ? null : $"{result.StatusCode} {result.ErrorCode}: {result.ErrorMessage}";
        }, cancellationToken);
    }
}
