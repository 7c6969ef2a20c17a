using Loader.Worker.Records;
using ParquetSharp;

namespace Loader.Worker.Parquet;

/// <summary>
/// The buffers a single-value column of a file is read into, a batch at a time, kept from row group to row group: two,
/// read in turn, so a batch's cells stay valid while the next batch is read, across a row group's end too. Made anew
/// for each row group, they lived through the group and were collected old: a file of 41 row groups brought on 21 full
/// collections where CSV's same rows brought one.
/// </summary>
internal sealed class ParquetValueBuffers
{
    private readonly ParquetLeafType _leaf;
    private readonly Cells[] _buffers;
    private int _next;

    /// <param name="reader">The column's reader in the first row group read.</param>
    /// <param name="leaf">The leaf, as its pages are decoded.</param>
    /// <param name="texts">The file's shared strings of this column, when it is text.</param>
    public ParquetValueBuffers(ColumnReader reader, ParquetLeafType leaf, ParquetTextTable texts)
    {
        _leaf = leaf;
        _buffers = [new Cells(ParquetLeafValues.For(reader, leaf, texts), leaf), new Cells(ParquetLeafValues.For(reader, leaf, texts), leaf)];
    }

    /// <summary>Reads on from <paramref name="reader"/>, the column's reader in the next row group.</summary>
    public void Bind(ColumnReader reader)
    {
        foreach (var buffer in _buffers)
        {
            buffer.Values.Bind(reader);
        }
    }

    /// <summary>Reads the next <paramref name="rows"/> rows into the buffer after the last one read.</summary>
    public IParquetColumnCells Read(int rows)
    {
        var cells = _buffers[_next];
        _next ^= 1;
        cells.Read(rows);
        return cells;
    }

    /// <summary>Passes over the next <paramref name="rows"/> rows unread.</summary>
    public void Skip(int rows)
    {
        var skipped = _buffers[0].Values.Skip(rows);
        if (skipped != rows)
        {
            throw new InvalidDataException($"column '{_leaf.Column.Name}' ends {skipped:N0} rows into {rows:N0} passed over: it has fewer values than its row group has rows");
        }
    }

    /// <summary>One buffer: a batch's values, and for a nullable column where each row's value is.</summary>
    private sealed class Cells(ParquetLeafValues values, ParquetLeafType leaf) : IParquetColumnCells
    {
        private short[] _definitions = [];

        // A nullable column's rows: the index of each row's value among those read, or -1 for a null.
        private int[] _valueOf = [];

        public ParquetLeafValues Values => values;

        private bool Nullable => leaf.MaxDefinitionLevel > 0;

        public void Read(int rows)
        {
            values.Clear();
            if (Nullable && _definitions.Length < rows)
            {
                _definitions = new short[rows];
                _valueOf = new int[rows];
            }

            var read = values.Read(rows, Nullable ? _definitions.AsSpan(0, rows) : [], []);
            if (read != rows)
            {
                throw new InvalidDataException($"column '{leaf.Column.Name}' ends {read:N0} rows into a read of {rows:N0}: it has fewer values than its row group has rows");
            }

            if (Nullable)
            {
                var next = 0;
                var max = leaf.MaxDefinitionLevel;
                for (var row = 0; row < rows; row++)
                {
                    _valueOf[row] = _definitions[row] == max ? next++ : -1;
                }
            }
        }

        public TypedField Cell(int row)
        {
            if (!Nullable)
            {
                return values.Convert(row);
            }

            var value = _valueOf[row];
            return value >= 0 ? values.Convert(value) : TypedField.Null;
        }

        public void CopyTo(int firstRow, Span<TypedField> destination) =>
            values.ConvertTo(destination, firstRow, Nullable ? _valueOf.AsSpan(firstRow, destination.Length) : []);
    }
}
