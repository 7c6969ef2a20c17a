namespace Loader.Abstractions;

/// <summary>
/// Writes batches to one store. An adapter makes exactly one attempt per call and reports what the service said:
/// retries, pacing and bookkeeping belong to the pipeline, so throttling stays visible.
/// </summary>
public interface IBackendAdapter : IAsyncDisposable
{
    /// <summary>Short name for reports, e.g. <c>Tables</c>.</summary>
    string Name { get; }

    BackendLimits Limits { get; }

    /// <summary>Connects, checks credentials and creates the target (table, container) when configured to.</summary>
    Task PrepareAsync(CancellationToken cancellationToken);

    /// <summary>Why a column name cannot be a property name in this store, or null when it can.</summary>
    string? CheckPropertyName(string name);

    /// <summary>
    /// Sizes an entity and checks it against the service's rules, before it is created and batched. Called for
    /// every row, from several threads at once: keep it allocation-free and thread-safe.
    /// </summary>
    EntityInspection Inspect(string partitionKey, string rowKey, ReadOnlySpan<EntityProperty> properties);

    /// <summary>Sends the batch as one transaction.</summary>
    Task<BatchOutcome> WriteBatchAsync(EntityBatch batch, CancellationToken cancellationToken);
}
