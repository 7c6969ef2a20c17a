namespace Loader.Worker.Verify;

/// <summary>What verify can find wrong with a key of the input, or around it; each kind is counted and exemplified on its own.</summary>
internal enum FindingKind
{
    /// <summary>The store holds nothing under a key the load should have written.</summary>
    Missing,

    /// <summary>The store holds something else under the key: the report names the first property that differs, with both values.</summary>
    Different,

    /// <summary>The input names the key more than once and the store holds another of its rows than the one that should have won (the later, or under Insert the first).</summary>
    DuplicateNotWon,

    /// <summary>Under Delete: the store still holds the key.</summary>
    NotDeleted,

    /// <summary>With <c>--extra</c>: an entity in one of the input's partitions that no input row names.</summary>
    Extra,
}
