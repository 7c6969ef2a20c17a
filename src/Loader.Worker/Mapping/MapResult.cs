using Loader.Abstractions;

namespace Loader.Worker.Mapping;

/// <summary>
/// A record mapped to an entity, or the reason it cannot be (with the record's text for the rejects file), or skipped as
/// settled by an earlier run, or left to another shard of a sharded load.
/// </summary>
internal readonly record struct MapResult(LoadEntity? Entity, RowOrigin Origin, string? RejectReason, string? RecordText, bool OtherShard = false)
{
    /// <summary>The record's digest for the input's fingerprint (<see cref="Records.RecordSequenceHash"/>), when the load keeps one.</summary>
    public ulong Digest { get; init; }

    /// <summary>The entity's measure for the batcher, taken on the mapping thread (<see cref="Batching.RowMeasure"/>).</summary>
    public Batching.RowMeasure Measure { get; init; }

    /// <summary>A rejected record that cannot be split into the input's fields (it holds bytes that are not text): kept as its text.</summary>
    public bool Unsplit { get; init; }

    public bool Skipped => Entity is null && RejectReason is null && !OtherShard;

    /// <summary>A record another shard writes or rejects.</summary>
    public static MapResult Other(RowOrigin origin) => new(null, origin, null, null, OtherShard: true);

    /// <summary>A record an earlier run settled: not mapped again.</summary>
    public static MapResult Skip(RowOrigin origin) => new(null, origin, null, null);

    public static MapResult Accept(LoadEntity entity) => new(entity, entity.Origin, null, null);

    public static MapResult Reject(RowOrigin origin, string reason, string recordText) => new(null, origin, reason, recordText);

    public static MapResult RejectUnsplit(RowOrigin origin, string reason, string recordText) => new(null, origin, reason, recordText) { Unsplit = true };
}
