using Azure.Data.Tables;
using Loader.Abstractions;
using Loader.Worker.Backends.Tables;

namespace Loader.Benchmarks;

/// <summary>
/// The naive way to load: one insert-or-replace request per row, a few in flight, as a hand-written script
/// using the SDK would. The loader's batching is worth the ratio of its speed to this.
/// </summary>
internal static class PerRowBaseline
{
    public const int InFlight = 10;

    public static Task<WriteTiming> WriteAsync(TableClient client, IReadOnlyList<LoadEntity> entities, CancellationToken cancellationToken) =>
        TimedWriter.RunAsync(entities, InFlight, _ => 1, async (entity, token) =>
        {
            await client.UpsertEntityAsync(TableEntities.ToTableEntity(entity), TableUpdateMode.Replace, token); // throws unless the service said 204
            return null;
        }, cancellationToken);
}
