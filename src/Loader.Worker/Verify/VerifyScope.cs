using Loader.Worker.Pipeline;

namespace Loader.Worker.Verify;

/// <summary>
/// A share of what verify reads, with the rejects files whose rows are expected absent: the whole input (a load, or a
/// sharded load by key, whose shards each read it whole), or one range shard's bytes, whose rejects file numbers its lines.
/// </summary>
/// <param name="Shard">Narrows the input to a range shard's share; null for the whole input.</param>
/// <param name="RejectsFiles">The rejects files (paths or blob URLs) listing this share's lines.</param>
internal sealed record VerifyScope(IShardScope? Shard, IReadOnlyList<string> RejectsFiles);
