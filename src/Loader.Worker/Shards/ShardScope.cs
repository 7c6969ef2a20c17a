using Loader.Worker.Inputs;
using Loader.Worker.Pipeline;

namespace Loader.Worker.Shards;

/// <summary>
/// What one shard of a sharded load reads: the pipeline of a shard's run opens the input as a load would and narrows
/// it here, to the shard's byte range of one part, or, for a key shard, keeps it whole and filters rows by bucket.
/// Either way the input must be what the plan saw: a part rewritten since is refused, never half-loaded.
/// </summary>
internal sealed class ShardScope(LoadManifest manifest, ShardSpec spec) : IShardScope
{
    public string Id => spec.Id;

    /// <summary>A key shard's filter; null for a range shard.</summary>
    public KeyBucketFilter? Buckets { get; } = spec is { Bucket: { } bucket, Buckets: { } buckets } ? new KeyBucketFilter(bucket, buckets) : null;

    /// <exception cref="InputMismatchException">The input is not what the plan cut.</exception>
    public InputSource Narrow(InputSource source)
    {
        if (spec.IsKeyBucket)
        {
            var identity = source.Identify();
            return identity == manifest.InputIdentity
                ? source
                : throw Changed($"the input is '{identity.Name}' of {identity.Length:N0} bytes ({identity.Fingerprint}); the plan read '{manifest.InputIdentity.Name}' of {manifest.InputIdentity.Length:N0} bytes ({manifest.InputIdentity.Fingerprint})");
        }

        var part = source.Parts.FirstOrDefault(candidate => candidate.Name == spec.Part)
            ?? throw Changed($"'{spec.Part}' is no longer part of the input");
        if (part.Length != spec.PartLength || part.Version != spec.PartVersion)
        {
            throw Changed($"'{spec.Part}' is now {part.Length:N0} bytes (version {part.Version ?? "none"}); the plan cut it at {spec.PartLength:N0} bytes (version {spec.PartVersion ?? "none"})");
        }

        var wholePart = spec.Start == 0 && spec.End == part.Length;
        InputPart shardPart = wholePart ? part : new RangePart(part, spec.HeaderBytes, spec.Start, spec.End) { Format = part.Format };
        // Rejects name the part and its own line: the shard's line 2 is the part's FirstLine (line 1 is the header); a
        // format without a header (JSON Lines) starts the range on it.
        var lines = new InputLineMap { HasSeveralParts = true };
        lines.PartStarts(part.Name, firstLine: 1, ownLine: 1);
        if (spec.Start > 0)
        {
            lines.PartStarts(part.Name, firstLine: spec.HeaderBytes > 0 ? 2 : 1, ownLine: spec.FirstLine);
        }

        return new InputSource($"{source.Display} {spec.Describe()}", [shardPart], lines);
    }

    private InputMismatchException Changed(string what) => new(
        $"Shard {spec.Id}: the input changed since the load was planned: {what}. Put the input back as it was, or plan a new load in a new Loader:Shards:State folder.");
}
