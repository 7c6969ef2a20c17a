using Loader.Abstractions;

namespace Loader.Worker.Batching;

/// <summary>What became of a row whose keys were already waiting in the same partial batch.</summary>
internal readonly record struct DuplicateKey(LoadEntity Earlier, LoadEntity Later, DuplicateResolution Resolution);

internal enum DuplicateResolution
{
    /// <summary>Upsert: the later row replaces the earlier, which is counted as superseded.</summary>
    LaterReplacesEarlier,

    /// <summary>Merge: the rows are folded into one operation (later values win), the earlier counted as superseded.</summary>
    Merged,

    /// <summary>Insert: the first row stands; the later one is rejected as a conflict.</summary>
    LaterRejected,
}
