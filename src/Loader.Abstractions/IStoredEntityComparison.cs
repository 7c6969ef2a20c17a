namespace Loader.Abstractions;

/// <summary>
/// An adapter that can read back what the store holds under a batch's keys and tell whether it is what the load writes.
/// A resumed Insert load asks when the service answers a row with a conflict: the earlier run may have written that very
/// row before it stopped (already written), or the key holds something else (a reject).
/// </summary>
public interface IStoredEntityComparison
{
    /// <summary>
    /// Reads the stored entities with the keys of the batch's entities (one partition key) and compares each with the
    /// entity as this adapter writes it: the same properties with the same typed values, the store's own fields
    /// (timestamps, ETags) aside. One attempt, as <see cref="IBackendAdapter.WriteBatchAsync"/>: a throttled or failed
    /// read comes back in the outcome, for the pipeline to retry.
    /// </summary>
    Task<StoredComparison> CompareStoredAsync(EntityBatch batch, CancellationToken cancellationToken);
}

/// <summary>What reading back a batch's keys found.</summary>
/// <param name="Outcome">
/// How the read went, as a write's outcome says it: <see cref="BatchStatus.Written"/> when every key was read (found or
/// not), else throttled, transient or failed, with the service's retry-after, charge and error.
/// </param>
/// <param name="Entities">For each entity of the batch, in its order, what the store holds under its keys; empty unless every key was read.</param>
public sealed record StoredComparison(BatchOutcome Outcome, IReadOnlyList<StoredState> Entities);

/// <summary>What the store holds under one entity's keys.</summary>
/// <param name="Match">Whether it is the entity as the load writes it.</param>
/// <param name="Difference">When it differs, where: the names of the properties that differ, never their values.</param>
public readonly record struct StoredState(StoredMatch Match, string? Difference = null)
{
    public static StoredState Equal { get; } = new(StoredMatch.Equal);

    public static StoredState Missing { get; } = new(StoredMatch.Missing);

    /// <summary>A stored entity that differs in the named properties (at most a few named).</summary>
    public static StoredState Differs(IReadOnlyCollection<string> properties) =>
        new(StoredMatch.Different, properties.Count <= 3
            ? "it differs in " + string.Join(", ", properties.Select(name => $"'{name}'"))
            : $"it differs in {string.Join(", ", properties.Take(3).Select(name => $"'{name}'"))} and {properties.Count - 3} more properties");
}

/// <summary>How a stored entity compares with the row.</summary>
public enum StoredMatch
{
    /// <summary>The store holds the row as the load writes it.</summary>
    Equal,

    /// <summary>The store holds other properties or values under the row's keys.</summary>
    Different,

    /// <summary>The store holds nothing under the row's keys.</summary>
    Missing,
}
