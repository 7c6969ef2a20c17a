namespace Loader.Abstractions;

/// <summary>
/// An adapter that can read back everything stored under one partition key, a page at a time: what <c>verify</c>
/// compares the input with, one query per partition key (paged) rather than one read per row. One attempt per call, as
/// <see cref="IBackendAdapter.WriteBatchAsync"/>: a throttled or failed page comes back in its outcome, for the pipeline
/// to retry and pace as it does a write.
/// </summary>
public interface IPartitionReader
{
    /// <summary>Reads the page of the entities stored under <paramref name="partitionKey"/> that <paramref name="continuation"/> points to (null: the first).</summary>
    Task<StoredPage> ReadPartitionAsync(string partitionKey, string? continuation, CancellationToken cancellationToken);
}

/// <summary>
/// One page of a partition as the store holds it. Disposing it releases the page's buffers: compare its entities before.
/// </summary>
/// <param name="outcome">
/// How the read went, as a write's outcome says it: <see cref="BatchStatus.Written"/> when the page was read, else
/// throttled, transient or failed, with the service's retry-after, charge and error.
/// </param>
/// <param name="entities">The entities of the page; empty unless it was read.</param>
/// <param name="continuation">Where the next page starts; null when this was the last.</param>
/// <param name="owner">What holds the page's buffers, disposed with it; null for none.</param>
public sealed class StoredPage(BatchOutcome outcome, IReadOnlyList<IStoredEntity> entities, string? continuation, IDisposable? owner = null) : IDisposable
{
    public BatchOutcome Outcome { get; } = outcome;

    public IReadOnlyList<IStoredEntity> Entities { get; } = entities;

    public string? Continuation { get; } = continuation;

    /// <summary>A page that could not be read: the outcome says why.</summary>
    public static StoredPage Unread(BatchOutcome outcome) => new(outcome, [], null);

    public void Dispose() => owner?.Dispose();
}

/// <summary>An entity as the store holds it, compared by the adapter's own rules (<see cref="IStoredEntityComparison"/>'s).</summary>
public interface IStoredEntity
{
    /// <summary>Its row key (Cosmos DB: the item id).</summary>
    string RowKey { get; }

    /// <summary>
    /// Where it differs from <paramref name="row"/> as this adapter writes the row: the first property that differs, with
    /// both values; null when it is the row. The store's own fields (timestamps, ETags) are never a difference.
    /// </summary>
    /// <param name="row">The row, mapped as the load maps it.</param>
    /// <param name="othersAllowed">Properties the row does not name are no difference (a Merge leaves them as they were).</param>
    PropertyDifference? Compare(LoadEntity row, bool othersAllowed);
}

/// <summary>The first property in which a stored entity differs from a row.</summary>
/// <param name="Property">The property's name.</param>
/// <param name="Expected">The row's value as the store would hold it, as text (JSON-like: strings quoted); null when the row has no such property.</param>
/// <param name="Stored">The stored value, as text; null when the store holds no such property.</param>
public sealed record PropertyDifference(string Property, string? Expected, string? Stored);
