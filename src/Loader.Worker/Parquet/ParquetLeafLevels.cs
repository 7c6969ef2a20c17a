using Loader.Worker.Records;
using ParquetSharp;

namespace Loader.Worker.Parquet;

/// <summary>
/// One leaf of a list or map column of one row group, read whole: its values with their definition and repetition
/// levels, indexed by row, from which <see cref="ParquetNestedCursor"/> assembles each row's JSON.
/// </summary>
internal sealed class ParquetLeafLevels : IDisposable
{
    private readonly ColumnReader _reader;
    private readonly ParquetLeafType _leaf;
    private readonly ParquetLeafValues _values;
    private readonly short[] _definitions;
    private readonly short[] _repetitions;
    private readonly int _rows;

    // Where each row's entries start among the levels, and its values among the values (a null or empty entry has none).
    private readonly int[] _rowStart;
    private readonly int[] _valueStart;

    private ParquetLeafLevels(ColumnReader reader, ParquetLeafType leaf, int levels, int rows)
    {
        _reader = reader;
        _leaf = leaf;
        _rows = rows;
        _values = ParquetLeafValues.For(reader, leaf, texts: null);
        _definitions = new short[Math.Max(levels, 1)];
        _repetitions = new short[Math.Max(levels, 1)];
        LevelCount = _values.Read(levels, leaf.MaxDefinitionLevel > 0 ? _definitions.AsSpan(0, levels) : [], _repetitions.AsSpan(0, levels));
        if (LevelCount != levels)
        {
            throw new InvalidDataException($"column '{leaf.Column.Name}' has {LevelCount:N0} entries where its metadata counts {levels:N0}");
        }

        _rowStart = new int[rows + 1];
        _valueStart = new int[rows + 1];
        Index();
    }

    /// <summary>Reads leaf <paramref name="leaf"/> of the row group through <paramref name="reader"/>: its <paramref name="levels"/> entries, of <paramref name="rows"/> rows.</summary>
    public static ParquetLeafLevels Read(ColumnReader reader, ParquetLeafType leaf, int levels, int rows)
    {
        ArgumentNullException.ThrowIfNull(reader);
        ArgumentNullException.ThrowIfNull(leaf);
        if (leaf.MaxRepetitionLevel == 0)
        {
            throw new InvalidDataException($"column '{leaf.Column.Name}' is a list without repetition levels");
        }

        return new ParquetLeafLevels(reader, leaf, levels, rows);
    }

    /// <summary>The entries (levels) of the row group.</summary>
    public int LevelCount { get; }

    /// <summary>The first entry of <paramref name="row"/>; of the row after the last, <see cref="LevelCount"/>.</summary>
    public int RowStart(int row) => _rowStart[row];

    /// <summary>The definition level of entry <paramref name="level"/>.</summary>
    public int Definition(int level) => _leaf.MaxDefinitionLevel > 0 ? _definitions[level] : 0;

    /// <summary>The repetition level of entry <paramref name="level"/>.</summary>
    public int Repetition(int level) => _repetitions[level];

    /// <summary>The index among the leaf's values of the first value of <paramref name="row"/>.</summary>
    public int FirstValue(int row) => _valueStart[row];

    /// <summary>Value <paramref name="value"/> of the leaf, converted as a single value is.</summary>
    public TypedField Value(int value) => _values.Convert(value);

    public void Dispose() => _reader.Dispose();

    // A repetition level of 0 starts a row; its entries run to the next row's start.
    private void Index()
    {
        var rowAt = 0;
        for (var level = 0; level < LevelCount; level++)
        {
            if (_repetitions[level] == 0)
            {
                if (rowAt == _rows)
                {
                    throw new InvalidDataException($"column '{_leaf.Column.Name}' has more rows than the row group's {_rows:N0}");
                }

                _rowStart[rowAt++] = level;
            }
        }

        if (rowAt != _rows)
        {
            throw new InvalidDataException($"column '{_leaf.Column.Name}' has {rowAt:N0} rows, not the row group's {_rows:N0}");
        }

        _rowStart[_rows] = LevelCount;
        var values = 0;
        var max = _leaf.MaxDefinitionLevel;
        for (var row = 0; row < _rows; row++)
        {
            _valueStart[row] = values;
            for (var level = _rowStart[row]; level < _rowStart[row + 1]; level++)
            {
                if (Definition(level) == max)
                {
                    values++;
                }
            }
        }

        _valueStart[_rows] = values;
        if (values != _values.Count)
        {
            throw new InvalidDataException($"column '{_leaf.Column.Name}' has {_values.Count:N0} values where its levels define {values:N0}");
        }
    }
}
