using System.Buffers;
using Parquet;

using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>
/// One leaf of a list or map column of one row group, read whole: its values with their definition and repetition
/// levels, indexed by row, from which <see cref="ParquetNestedChunk"/> assembles each row's JSON.
/// </summary>
internal static class ParquetLeafLevels
{
    /// <summary>Reads leaf <paramref name="column"/> of <paramref name="group"/>.</summary>
    public static ValueTask<IParquetLeafLevels> ReadAsync(ParquetRowGroupReader group, ParquetColumn column, CancellationToken cancellationToken) =>
        ParquetClrTypes.ReadAsync(column, new LeafRead(group, column, cancellationToken));

    private sealed class LeafRead(ParquetRowGroupReader group, ParquetColumn column, CancellationToken cancellationToken) : IParquetValueRead<IParquetLeafLevels>
    {
        public ValueTask<IParquetLeafLevels> ReadAsync<T>()
            where T : struct => ParquetLeafLevels<T>.ReadTypedAsync(group, column, cancellationToken);
    }
}

/// <summary>A leaf of values of <typeparamref name="T"/>, with its levels.</summary>
internal sealed class ParquetLeafLevels<T> : IParquetLeafLevels
    where T : struct
{
    private readonly ParquetColumn _column;
    private readonly T[] _values;
    private readonly int[]? _definitions;
    private readonly int[]? _repetitions;

    // Where each row's entries start among the levels.
    private readonly int[] _rowIndex;
    private readonly int _rows;
    private readonly int _levelCount;

    // Where each row's values start among the values (a null or empty entry has none).
    private int[]? _listValueStart;

    private ParquetLeafLevels(ParquetColumn column, T[] values, int[]? definitions, int[]? repetitions, int levelCount, int rows)
    {
        _column = column;
        _values = values;
        _definitions = definitions;
        _repetitions = repetitions;
        _levelCount = levelCount;
        _rows = rows;
        _rowIndex = ArrayPool<int>.Shared.Rent(rows + 1);
        Index();
    }

    public static async ValueTask<IParquetLeafLevels> ReadTypedAsync(ParquetRowGroupReader group, ParquetColumn column, CancellationToken cancellationToken)
    {
        var leaf = column.Leaf;
        var count = ParquetColumnChunk.ValueCount(group, column);
        var rows = checked((int)group.RowCount);
        var values = ArrayPool<T>.Shared.Rent(Math.Max(count, 1));
        var definitions = leaf.MaxDefinitionLevel > 0 ? ArrayPool<int>.Shared.Rent(Math.Max(count, 1)) : null;
        var repetitions = leaf.MaxRepetitionLevel > 0 ? ArrayPool<int>.Shared.Rent(Math.Max(count, 1)) : null;
        try
        {
            await group.ReadRawAsync(leaf, values.AsMemory(), definitions?.AsMemory(), repetitions?.AsMemory(), cancellationToken).ConfigureAwait(false);
            return new ParquetLeafLevels<T>(column, values, definitions, repetitions, count, rows);
        }
        catch
        {
            Return(values, definitions, repetitions);
            throw;
        }
    }

    public int LevelCount => _levelCount;

    public int RowStart(int row) => _rowIndex[row];

    public int Definition(int level) => _definitions?[level] ?? _column.Leaf.MaxDefinitionLevel;

    public int Repetition(int level) => _repetitions![level];

    public int FirstValue(int row) => _listValueStart![row];

    public TypedField Value(int value) => ParquetValueConverter.Convert(_values[value], _column);

    public long HeldBytes => ((long)_values.Length * System.Runtime.CompilerServices.Unsafe.SizeOf<T>())
        + (((long)(_definitions?.Length ?? 0) + (_repetitions?.Length ?? 0) + _rowIndex.Length) * sizeof(int));

    public void Dispose()
    {
        Return(_values, _definitions, _repetitions);
        ArrayPool<int>.Shared.Return(_rowIndex);
        if (_listValueStart is not null)
        {
            ArrayPool<int>.Shared.Return(_listValueStart);
        }
    }

    private static void Return(T[] values, int[]? definitions, int[]? repetitions)
    {
        ArrayPool<T>.Shared.Return(values, clearArray: System.Runtime.CompilerServices.RuntimeHelpers.IsReferenceOrContainsReferences<T>());
        if (definitions is not null)
        {
            ArrayPool<int>.Shared.Return(definitions);
        }

        if (repetitions is not null)
        {
            ArrayPool<int>.Shared.Return(repetitions);
        }
    }

    private void Index()
    {
        if (_repetitions is null)
        {
            throw new InvalidDataException($"column '{_column.Name}' is a list without repetition levels");
        }

        // Lists: a repetition level of 0 starts a row; the entries run to the next row's start.
        var rowAt = 0;
        for (var level = 0; level < _levelCount; level++)
        {
            if (_repetitions[level] == 0)
            {
                if (rowAt == _rows)
                {
                    throw new InvalidDataException($"column '{_column.Name}' has more rows than the row group's {_rows:N0}");
                }

                _rowIndex[rowAt++] = level;
            }
        }

        if (rowAt != _rows)
        {
            throw new InvalidDataException($"column '{_column.Name}' has {rowAt:N0} rows, not the row group's {_rows:N0}");
        }

        _rowIndex[_rows] = _levelCount;
        _listValueStart = ArrayPool<int>.Shared.Rent(_rows + 1);
        var values = 0;
        var maxDefinition = _column.Leaf.MaxDefinitionLevel;
        for (var row = 0; row < _rows; row++)
        {
            _listValueStart[row] = values;
            for (var level = _rowIndex[row]; level < _rowIndex[row + 1]; level++)
            {
                if (_definitions is null || _definitions[level] == maxDefinition)
                {
                    values++;
                }
            }
        }
    }
}
