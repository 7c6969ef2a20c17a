namespace Loader.Worker.Parquet;

/// <summary>
/// A field of the struct elements of a list: a leaf (its index among <see cref="ParquetColumn.ElementLeaves"/>) or a struct
/// of more fields.
/// </summary>
/// <param name="Name">The field's name, as the element's JSON object names it.</param>
/// <param name="DefinedLevel">The definition level at which the field holds a value rather than a null.</param>
/// <param name="LeafIndex">The leaf's index among the list's element leaves; for a struct, the index of its first leaf.</param>
/// <param name="Fields">A struct's fields; null for a leaf.</param>
internal sealed record ParquetElementField(string Name, int DefinedLevel, int LeafIndex, IReadOnlyList<ParquetElementField>? Fields);
