namespace Loader.Worker.Parquet;

/// <summary>What a node of a nested column is: a leaf's value, a struct, a list or a map.</summary>
internal enum ParquetNestedKind
{
    Leaf,
    Struct,
    List,
    Map,
}

/// <summary>
/// A node of a nested column's schema (a list or map holding structs, lists or maps), with the levels its leaves' entries
/// are read by: the JSON it is written as is assembled from them.
/// </summary>
/// <param name="Kind">What the node is.</param>
/// <param name="Name">Its name, as a struct's JSON object names it.</param>
/// <param name="DefinedLevel">A leaf or struct: the definition level at which it is not null. A list or map: the level at
/// which it has an entry; one below, it is empty; further down, null.</param>
/// <param name="RepetitionLevel">A list or map: the repetition level at which an entry starts another of its own.</param>
/// <param name="FirstLeaf">The index of its first leaf among the column's leaves.</param>
/// <param name="LeafEnd">One past the index of its last leaf.</param>
/// <param name="Children">A struct's fields; a list's element; a map's key and value.</param>
internal sealed record ParquetNestedNode(ParquetNestedKind Kind, string Name, int DefinedLevel, int RepetitionLevel, int FirstLeaf, int LeafEnd, IReadOnlyList<ParquetNestedNode> Children);
