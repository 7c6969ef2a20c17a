using Loader.Worker.Configuration;
using Loader.Worker.Inputs;

namespace Loader.Worker.Shards;

/// <summary>
/// What <c>plan</c> decided for a sharded load, kept as <c>manifest.json</c> in its state folder: the input and settings it
/// is tied to (a manifest is never applied to another load, as a checkpoint is not) and the shards that tile the input.
/// </summary>
internal sealed record LoadManifest
{
    public const int CurrentVersion = 1;

    public int Version { get; init; } = CurrentVersion;

    /// <summary>Names the load in the queue's messages: a message of another load is not this load's work.</summary>
    public required string LoadId { get; init; }

    public required DateTimeOffset CreatedAt { get; init; }

    public required ShardKind By { get; init; }

    /// <summary>The input as logs name it (a URL without its signature).</summary>
    public required string Input { get; init; }

    public required InputIdentity InputIdentity { get; init; }

    /// <summary>The settings that decide what is written where, and how the input was cut, by key.</summary>
    public required IReadOnlyDictionary<string, string> Settings { get; init; }

    /// <summary>The shard queue, as logs name it.</summary>
    public required string Queue { get; init; }

    public required IReadOnlyList<ShardSpec> Shards { get; init; }

    /// <summary>How long the planning pass took (reading parts to find record boundaries).</summary>
    public double PlanSeconds { get; init; }
}
