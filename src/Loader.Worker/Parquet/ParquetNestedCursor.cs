using System.Buffers;
using System.Text.Json;
using Loader.Abstractions;
using Loader.Worker.Records;
using ParquetSharp;

namespace Loader.Worker.Parquet;

/// <summary>
/// A list or map column of one row group (of single values, or holding structs, lists or maps at any depth): each leaf
/// read whole with its definition and repetition levels when the group's first rows are, then, when a row's cell is
/// taken, the row's JSON assembled from the leaves' entries by the schema (<see cref="ParquetNestedNode"/>): a list as
/// an array, a struct as an object, a map as an object keyed by its keys' text; a null at any depth a null. A row's
/// entries are found by its repetition levels only once they are all read, so this column holds its row group's.
/// </summary>
/// <param name="column">The column.</param>
/// <param name="open">Opens the reader of each of its leaves, with the leaf's stored type and its values (levels) in the group.</param>
/// <param name="rows">The row group's rows.</param>
internal sealed class ParquetNestedCursor(ParquetColumn column, Func<ParquetColumn, (ColumnReader Reader, ParquetLeafType Leaf, long Values)> open, int rows) : ParquetColumnCursor
{
    private readonly ParquetColumn _column = column;
    private ParquetLeafLevels[]? _leaves;

    // The next row of the row group to read.
    private int _next;

    public override IParquetColumnCells Read(int count)
    {
        Load();
        var cells = new Cells(this, _next);
        _next += count;
        return cells;
    }

    public override void Skip(int count)
    {
        Load();
        _next += count;
    }

    public override void Dispose()
    {
        foreach (var leaf in _leaves ?? [])
        {
            leaf.Dispose();
        }
    }

    private void Load()
    {
        if (_leaves is not null)
        {
            return;
        }

        var leaves = new List<ParquetLeafLevels>(_column.NestedLeaves.Count);
        try
        {
            foreach (var nested in _column.NestedLeaves)
            {
                var (reader, leaf, levels) = open(nested);
                try
                {
                    leaves.Add(ParquetLeafLevels.Read(reader, leaf, checked((int)levels), rows));
                }
                catch
                {
                    reader.Dispose();
                    throw;
                }
            }
        }
        catch
        {
            foreach (var leaf in leaves)
            {
                leaf.Dispose();
            }

            throw;
        }

        _leaves = [.. leaves];
    }


    /// <summary>The JSON of row <paramref name="row"/> of the row group.</summary>
    private TypedField Assemble(int row)
    {
        var root = _column.Nested!;
        var lead = _leaves![root.FirstLeaf];
        if (lead.Definition(lead.RowStart(row)) < root.DefinedLevel - 1)
        {
            return TypedField.Null;
        }

        var cursor = new Cursor(_leaves!.Length);
        try
        {
            for (var leaf = 0; leaf < _leaves!.Length; leaf++)
            {
                cursor.Entries[leaf] = _leaves![leaf].RowStart(row);
                cursor.Values[leaf] = _leaves![leaf].FirstValue(row);
            }

            var buffer = new ArrayBufferWriter<byte>();
            using (var writer = new Utf8JsonWriter(buffer))
            {
                if (Write(writer, root, cursor, row) is { } problem)
                {
                    return TypedField.Refused(problem);
                }
            }

            for (var leaf = 0; leaf < _leaves!.Length; leaf++)
            {
                if (cursor.Entries[leaf] != _leaves![leaf].RowStart(row + 1))
                {
                    return TypedField.Refused(Misplaced(leaf));
                }
            }

            return TypedField.Of(EntityProperty.FromJson(_column.Property, System.Text.Encoding.UTF8.GetString(buffer.WrittenSpan)));
        }
        finally
        {
            cursor.Return();
        }
    }

    /// <summary>Writes <paramref name="node"/> at the cursor, moving it past the entries it takes; why a value cannot be written, or null.</summary>
    private string? Write(Utf8JsonWriter writer, ParquetNestedNode node, Cursor cursor, int row)
    {
        var lead = node.FirstLeaf;
        if (cursor.Entries[lead] >= _leaves![lead].RowStart(row + 1))
        {
            return Misplaced(lead);
        }

        var definition = _leaves![lead].Definition(cursor.Entries[lead]);
        switch (node.Kind)
        {
            case ParquetNestedKind.Leaf when definition < node.DefinedLevel:
                writer.WriteNullValue();
                cursor.Entries[lead]++;
                return null;
            case ParquetNestedKind.Leaf:
                var value = _leaves![lead].Value(cursor.Values[lead]++);
                cursor.Entries[lead]++;
                if (value.Problem is { } problem)
                {
                    return problem;
                }

                PropertyJson.Write(writer, value.Property);
                return null;
            case ParquetNestedKind.Struct when definition < node.DefinedLevel:
            case ParquetNestedKind.List or ParquetNestedKind.Map when definition < node.DefinedLevel - 1:
                // A null takes one entry of each leaf below it.
                writer.WriteNullValue();
                cursor.Pass(node);
                return null;
            case ParquetNestedKind.List or ParquetNestedKind.Map when definition < node.DefinedLevel:
                writer.WriteRawValue(node.Kind == ParquetNestedKind.Map ? "{}" : "[]", skipInputValidation: true);
                cursor.Pass(node);
                return null;
            case ParquetNestedKind.Struct:
                writer.WriteStartObject();
                foreach (var child in node.Children)
                {
                    writer.WritePropertyName(child.Name);
                    if (Write(writer, child, cursor, row) is { } inner)
                    {
                        return inner;
                    }
                }

                writer.WriteEndObject();
                return null;
            case ParquetNestedKind.List:
                writer.WriteStartArray();
                do
                {
                    if (Write(writer, node.Children[0], cursor, row) is { } inner)
                    {
                        return inner;
                    }
                }
                while (StartsAnother(node, cursor, row));

                writer.WriteEndArray();
                return null;
            default:
                return WriteMap(writer, node, cursor, row);
        }
    }

    /// <summary>A map's entries as one JSON object, each key as its text; a key given twice is refused rather than one value lost.</summary>
    private string? WriteMap(Utf8JsonWriter writer, ParquetNestedNode node, Cursor cursor, int row)
    {
        var (key, value) = (node.Children[0], node.Children[1]);
        var seen = new HashSet<string>(StringComparer.Ordinal);
        writer.WriteStartObject();
        do
        {
            var keys = _leaves![key.FirstLeaf];
            if (keys.Definition(cursor.Entries[key.FirstLeaf]) < key.DefinedLevel)
            {
                return $"column '{_column.Name}' has a map entry without a key";
            }

            var text = keys.Value(cursor.Values[key.FirstLeaf]++);
            cursor.Entries[key.FirstLeaf]++;
            if (text.Problem is { } problem)
            {
                return problem;
            }

            var name = TypedText.Of(text.Property);
            if (!seen.Add(name))
            {
                return $"column '{_column.Name}' holds the map key '{name}' twice";
            }

            writer.WritePropertyName(name);
            if (Write(writer, value, cursor, row) is { } inner)
            {
                return inner;
            }
        }
        while (StartsAnother(node, cursor, row));

        writer.WriteEndObject();
        return null;
    }

    /// <summary>A row whose leaves' entries do not add up to what the schema places: the file is inconsistent there.</summary>
    private string Misplaced(int leaf) =>
        $"column '{_column.Name}' cannot be assembled: its field '{_column.NestedLeaves[leaf].Name}' has entries its schema does not place";

    /// <summary>Whether the next entry of the node's first leaf is another element (entry) of the same list (map).</summary>
    private bool StartsAnother(ParquetNestedNode node, Cursor cursor, int row)
    {
        var lead = _leaves![node.FirstLeaf];
        var entry = cursor.Entries[node.FirstLeaf];
        return entry < lead.RowStart(row + 1) && lead.Repetition(entry) == node.RepetitionLevel;
    }

    /// <summary>The cells of a batch: rows of the row group from <paramref name="first"/> on, assembled when asked (the group's levels stay read).</summary>
    private sealed class Cells(ParquetNestedCursor cursor, int first) : IParquetColumnCells
    {
        public TypedField Cell(int row) => cursor.Assemble(first + row);
    }

    /// <summary>Where the assembly of one row stands in each leaf: its next entry (level) and its next value.</summary>
    private sealed class Cursor(int leaves)
    {
        public int[] Entries { get; } = ArrayPool<int>.Shared.Rent(leaves);

        public int[] Values { get; } = ArrayPool<int>.Shared.Rent(leaves);

        /// <summary>Moves past the one entry a null or empty node takes in each leaf below it.</summary>
        public void Pass(ParquetNestedNode node)
        {
            for (var leaf = node.FirstLeaf; leaf < node.LeafEnd; leaf++)
            {
                Entries[leaf]++;
            }
        }

        public void Return()
        {
            ArrayPool<int>.Shared.Return(Entries);
            ArrayPool<int>.Shared.Return(Values);
        }
    }
}
