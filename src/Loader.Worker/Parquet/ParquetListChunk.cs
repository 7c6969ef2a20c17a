using System.Buffers;
using System.Text.Json;
using Loader.Abstractions;
using Parquet;
using Parquet.Data;

using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>
/// A list column of one row group, read whole (values with their definition and repetition levels), each row's entries
/// written as one JSON array when its cell is taken.
/// </summary>
internal static class ParquetListChunk
{
    /// <summary>Reads list column <paramref name="column"/> of <paramref name="group"/>.</summary>
    public static async ValueTask<ParquetColumnChunk> ReadAsync(ParquetRowGroupReader group, ParquetColumn column, CancellationToken cancellationToken) =>
        column.Leaf.ClrType switch
        {
            var t when t == typeof(bool) => await ParquetListChunk<bool>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(sbyte) => await ParquetListChunk<sbyte>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(byte) => await ParquetListChunk<byte>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(short) => await ParquetListChunk<short>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(ushort) => await ParquetListChunk<ushort>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(int) => await ParquetListChunk<int>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(uint) => await ParquetListChunk<uint>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(long) => await ParquetListChunk<long>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(ulong) => await ParquetListChunk<ulong>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(Half) => await ParquetListChunk<Half>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(float) => await ParquetListChunk<float>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(double) => await ParquetListChunk<double>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(decimal) => await ParquetListChunk<decimal>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(BigDecimal) => await ParquetListChunk<BigDecimal>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(ReadOnlyMemory<char>) => await ParquetListChunk<ReadOnlyMemory<char>>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(ReadOnlyMemory<byte>) => await ParquetListChunk<ReadOnlyMemory<byte>>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(DateTime) => await ParquetListChunk<DateTime>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(DateOnly) => await ParquetListChunk<DateOnly>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(Guid) => await ParquetListChunk<Guid>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t => throw new InvalidOperationException($"column '{column.Name}' has values of {t.Name}, which the plan should have refused"),
        };

}

/// <summary>A list column chunk of values of <typeparamref name="T"/>.</summary>
internal sealed class ParquetListChunk<T> : ParquetColumnChunk, IParquetListLevels
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

    private ParquetListChunk(ParquetColumn column, T[] values, int[]? definitions, int[]? repetitions, int levelCount, int rows)
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

    public static async ValueTask<ParquetColumnChunk> ReadTypedAsync(ParquetRowGroupReader group, ParquetColumn column, CancellationToken cancellationToken)
    {
        var leaf = column.Leaf;
        var count = ValueCount(group, column);
        var rows = checked((int)group.RowCount);
        var values = ArrayPool<T>.Shared.Rent(Math.Max(count, 1));
        var definitions = leaf.MaxDefinitionLevel > 0 ? ArrayPool<int>.Shared.Rent(Math.Max(count, 1)) : null;
        var repetitions = leaf.MaxRepetitionLevel > 0 ? ArrayPool<int>.Shared.Rent(Math.Max(count, 1)) : null;
        try
        {
            await group.ReadRawAsync(leaf, values.AsMemory(), definitions?.AsMemory(), repetitions?.AsMemory(), cancellationToken).ConfigureAwait(false);
            return new ParquetListChunk<T>(column, values, definitions, repetitions, count, rows);
        }
        catch
        {
            Return(values, definitions, repetitions);
            throw;
        }
    }

    public override TypedField Cell(int row) => ListCell(row);

    public int LevelCount => _levelCount;

    public int RowStart(int row) => _rowIndex[row];

    public int Definition(int level) => _definitions?[level] ?? _column.Leaf.MaxDefinitionLevel;

    public int Repetition(int level) => _repetitions![level];

    public int FirstValue(int row) => _listValueStart![row];

    public TypedField Value(int value) => ParquetValueConverter.Convert(_values[value], _column, _column.ElementType);

    public override long HeldBytes => ((long)_values.Length * System.Runtime.CompilerServices.Unsafe.SizeOf<T>())
        + (((long)(_definitions?.Length ?? 0) + (_repetitions?.Length ?? 0) + _rowIndex.Length) * sizeof(int));

    public override void Dispose()
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

    private int[]? _listValueStart;

    /// <summary>A list row as one JSON array of its elements converted as single values are; a null list is a null.</summary>
    private TypedField ListCell(int row)
    {
        var first = _rowIndex[row];
        var end = _rowIndex[row + 1];
        var maxDefinition = _column.Leaf.MaxDefinitionLevel;
        var listDefined = _column.List is { } list ? list.MaxDefinitionLevel : maxDefinition;
        if (end - first == 1 && _definitions is not null && _definitions[first] < listDefined)
        {
            // No entry: an empty list one level below where entries are, a null list (or a null parent) further down.
            return _definitions[first] >= listDefined - 1 && _column.List is not null
                ? TypedField.Of(EntityProperty.FromJson(_column.Property, "[]"))
                : TypedField.Null;
        }

        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartArray();
            var value = _listValueStart![row];
            for (var level = first; level < end; level++)
            {
                if (_definitions is not null && _definitions[level] != maxDefinition)
                {
                    writer.WriteNullValue();
                    continue;
                }

                var element = ParquetValueConverter.Convert(_values[value++], _column, _column.ElementType);
                if (element.Problem is { } problem)
                {
                    return TypedField.Refused(problem);
                }

                PropertyJson.Write(writer, element.Property);
            }

            writer.WriteEndArray();
        }

        return TypedField.Of(EntityProperty.FromJson(_column.Property, System.Text.Encoding.UTF8.GetString(buffer.WrittenSpan)));
    }
}
