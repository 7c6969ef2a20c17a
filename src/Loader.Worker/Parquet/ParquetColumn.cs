using Loader.Abstractions;
using Parquet.Schema;

namespace Loader.Worker.Parquet;

/// <summary>
/// One column of a Parquet input as the loader writes it: a leaf of the file's schema (a struct's leaves are named by
/// their path, joined with the store's path separator), a list written as one JSON array (of a leaf's values, or of
/// objects when the list's elements are structs: <see cref="ElementFields"/>), or a map written as one JSON object.
/// </summary>
/// <param name="Name">The column's name: what templates and <c>Loader:Columns</c> name, and the property written.</param>
/// <param name="Leaf">The Parquet leaf the values are read from (a list of structs: its first leaf).</param>
/// <param name="Kind">How the leaf's values are read and converted.</param>
/// <param name="Type">The store type written.</param>
/// <param name="List">The list holding the leaf, when the column is a list; null for a single value.</param>
/// <param name="ParquetType">The Parquet type as messages name it (<c>INT64</c>, <c>DECIMAL(38,9)</c>, <c>LIST&lt;STRING&gt;</c>).</param>
internal sealed record ParquetColumn(string Name, DataField Leaf, ParquetValueKind Kind, ColumnType Type, ListField? List, string ParquetType)
{
    /// <summary>The name as properties hold it, registered once.</summary>
    public PropertyName Property { get; } = PropertyName.Of(Name);

    /// <summary>The store type of a list's elements, as each stands in its JSON array; the column's own type for a single value.</summary>
    public ColumnType ElementType { get; init; } = Type;

    /// <summary>A list of structs: the fields of its elements, each element written as a JSON object of them; null otherwise.</summary>
    public IReadOnlyList<ParquetElementField>? ElementFields { get; init; }

    /// <summary>A list of structs: the leaves of its elements' fields in schema order, each read as a list column of its own.</summary>
    public IReadOnlyList<ParquetColumn> ElementLeaves { get; init; } = [];

    /// <summary>A list of structs: the definition level at which an element is a struct, not a null.</summary>
    public int ElementDefinedLevel { get; init; }

    /// <summary>A list of structs or a map: the definition level at which a row has an entry (one below, an empty one).</summary>
    public int EntryDefinedLevel { get; init; }

    /// <summary>A map: its entries' key and value are <see cref="ElementLeaves"/> 0 and 1, written as one JSON object.</summary>
    public bool IsMap { get; init; }
}
