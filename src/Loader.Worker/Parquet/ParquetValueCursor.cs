using Loader.Worker.Records;
using ParquetSharp;

namespace Loader.Worker.Parquet;

/// <summary>
/// A single-value column (a top-level column or a struct's field): a batch of rows' values and definition levels,
/// from which each row's cell is its value, or a null where the level is short of the leaf's. Two buffers, read in
/// turn: a batch's cells stay valid while the next batch is read.
/// </summary>
internal sealed class ParquetValueCursor : ParquetColumnCursor
{
    private readonly ColumnReader _reader;
    private readonly ParquetLeafType _leaf;
    private readonly Cells[] _buffers;
    private int _next;

    public ParquetValueCursor(ColumnReader reader, ParquetLeafType leaf, ParquetTextTable texts)
    {
        _reader = reader;
        _leaf = leaf;
        _buffers = [new Cells(ParquetLeafValues.For(reader, leaf, texts), leaf), new Cells(ParquetLeafValues.For(reader, leaf, texts), leaf)];
    }

    public override IParquetColumnCells Read(int rows)
    {
        var cells = _buffers[_next];
        _next ^= 1;
        cells.Read(rows);
        return cells;
    }

    public override void Skip(int rows)
    {
        var skipped = _buffers[0].Values.Skip(rows);
        if (skipped != rows)
        {
            throw new InvalidDataException($"column '{_leaf.Column.Name}' ends {skipped:N0} rows into {rows:N0} passed over: it has fewer values than its row group has rows");
        }
    }

    public override void Dispose() => _reader.Dispose();

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
    }
}
