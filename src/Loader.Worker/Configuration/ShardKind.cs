namespace Loader.Worker.Configuration;

/// <summary>How a sharded load divides its input (<c>Loader:Shards:By</c>); docs/scale-out.md says what each guarantees.</summary>
internal enum ShardKind
{
    /// <summary>
    /// By partition-key hash: every shard reads the whole input and writes the rows whose partition key falls in its
    /// bucket. All rows of a key go through one shard in input order, so the later row wins per key as in a single load;
    /// the price is that each shard reads the input once.
    /// </summary>
    Key,

    /// <summary>
    /// By input part: every blob of a prefix, and byte ranges of a large blob or file cut at record boundaries by a
    /// planning pass. Every row is read once; the later row wins per key only within a shard.
    /// </summary>
    Range,
}
