using Loader.Abstractions;
using Parquet.Schema;

namespace Loader.Worker.Parquet;

/// <summary>
/// One column of a Parquet input as the loader writes it: a leaf of the file's schema (a struct's leaves are named by
/// their path, joined with the store's path separator), or a list or map (<see cref="Nested"/>) written as the JSON it spells.
/// </summary>
/// <param name="Name">The column's name: what templates and <c>Loader:Columns</c> name, and the property written.</param>
/// <param name="Leaf">The Parquet leaf the values are read from (a list or map: its first leaf).</param>
/// <param name="Kind">How the leaf's values are read and converted.</param>
/// <param name="Type">The store type written.</param>
/// <param name="ParquetType">The Parquet type as messages name it (<c>INT64</c>, <c>DECIMAL(38,9)</c>, <c>LIST&lt;STRING&gt;</c>).</param>
internal sealed record ParquetColumn(string Name, DataField Leaf, ParquetValueKind Kind, ColumnType Type, string ParquetType)
{
    /// <summary>The name as properties hold it, registered once.</summary>
    public PropertyName Property { get; } = PropertyName.Of(Name);

    /// <summary>A list or map: its schema, by which its JSON is assembled; null for a single value.</summary>
    public ParquetNestedNode? Nested { get; init; }

    /// <summary>A list or map: its leaves in schema order, each read with its levels.</summary>
    public IReadOnlyList<ParquetColumn> NestedLeaves { get; init; } = [];

    /// <summary>A column <c>Loader:SkipColumns</c> leaves out whose type no store holds: never read, every cell empty.</summary>
    public bool Unread { get; init; }
}
