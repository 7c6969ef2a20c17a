using System.Text.Json.Serialization;
using Loader.Worker.Security;

namespace Loader.Worker.Shards;

/// <summary>One shard of a sharded load, as the plan cut it: a bucket of partition keys, or a byte range of an input part.</summary>
internal sealed record ShardSpec
{
    /// <summary>Its name in the queue, the state folder and the status: <c>s0001</c>, <c>s0002</c>, ...</summary>
    public required string Id { get; init; }

    /// <summary>Key shards: the bucket of partition keys this shard writes (0-based); rows that cannot be mapped belong to bucket 0.</summary>
    public int? Bucket { get; init; }

    /// <summary>Key shards: how many buckets there are.</summary>
    public int? Buckets { get; init; }

    /// <summary>Range shards: the part (file or blob name) the range is of; a worker finds the part by it.</summary>
    [Unredacted]
    public string? Part { get; init; }

    /// <summary>Range shards: the part's version when planned (a blob's ETag), so a rewritten part is refused, not half-loaded.</summary>
    public string? PartVersion { get; init; }

    /// <summary>Range shards: the part's size when planned.</summary>
    public long PartLength { get; init; }

    /// <summary>Range shards: where the shard's bytes start in the part (0: at its top, header included).</summary>
    public long Start { get; init; }

    /// <summary>Range shards: where they end (exclusive).</summary>
    public long End { get; init; }

    /// <summary>Range shards starting inside a part: bytes of the part's header, read before the range.</summary>
    public long HeaderBytes { get; init; }

    /// <summary>Range shards: the part's line on which the shard's first record starts (1: the header, for a range from the top).</summary>
    public long FirstLine { get; init; } = 1;

    /// <summary>Range shards: well-formed records of the part before this range (known when the part was cut; 0 otherwise).</summary>
    public long RecordsBefore { get; init; }

    [JsonIgnore]
    public bool IsKeyBucket => Bucket is not null;

    /// <summary>How status names what the shard covers.</summary>
    public string Describe() => Bucket is { } bucket
        ? $"partition keys of bucket {bucket} of {Buckets}"
        : Start == 0 && End == PartLength ? $"'{Part}'" : $"'{Part}' bytes {Start:N0}-{End:N0} (from line {FirstLine:N0})";
}
