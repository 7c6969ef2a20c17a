using Loader.Worker.Inputs;

namespace Loader.Worker.Pipeline;

/// <summary>
/// What one run of the pipeline needs of the shard it runs in a sharded load. Shards decide how a load is cut and run
/// the pipeline once per shard (<c>Shards/ShardScope</c>), so the pipeline asks only this of them.
/// </summary>
internal interface IShardScope
{
    /// <summary>The shard's id, as the report names it.</summary>
    string Id { get; }

    /// <summary>A key shard's filter of the rows it keeps; null for a range shard, which keeps every row it reads.</summary>
    KeyBucketFilter? Buckets { get; }

    /// <summary>The input narrowed to what the shard reads.</summary>
    /// <exception cref="InputMismatchException">The input is not what the plan cut.</exception>
    InputSource Narrow(InputSource source);
}
