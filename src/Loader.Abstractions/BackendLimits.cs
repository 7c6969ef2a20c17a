namespace Loader.Abstractions;

/// <summary>What one transactional batch of a backend may hold.</summary>
/// <param name="MaxOperationsPerBatch">Operations per transaction (both services: 100).</param>
/// <param name="MaxBatchPayloadBytes">Request payload per transaction, counted with the adapter's own <see cref="IBackendAdapter.Inspect"/> sizes.</param>
public sealed record BackendLimits(int MaxOperationsPerBatch, long MaxBatchPayloadBytes)
{
    /// <summary>Column names the service keeps for itself (Table: PartitionKey, RowKey, Timestamp): usable in key templates, never written as properties.</summary>
    public IReadOnlySet<string> SystemPropertyNames { get; init; } = new HashSet<string>(StringComparer.Ordinal);

    /// <summary>
    /// Text in a column name that nests it (Cosmos DB: <c>address.city</c> is the property <c>city</c> of the object
    /// <c>address</c>); null where entities are flat. A name then may not be both a value and a path through it.
    /// </summary>
    public string? PropertyPathSeparator { get; init; }

    /// <summary>Columns the backend's own settings name, each with its setting's full key: a header without one is refused at start.</summary>
    public IReadOnlyDictionary<string, string> RequiredColumns { get; init; } = new Dictionary<string, string>(StringComparer.Ordinal);
}
