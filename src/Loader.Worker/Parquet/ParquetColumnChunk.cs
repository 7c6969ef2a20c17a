using System.Buffers;
using System.Text.Json;
using Loader.Abstractions;
using Parquet;
using Parquet.Data;

using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>
/// One column of one row group, read whole (values with their definition and repetition levels), from which each
/// row's cell is taken in turn. The buffers are pooled and go back when the row group is done.
/// </summary>
internal abstract class ParquetColumnChunk : IDisposable
{
    /// <summary>Reads <paramref name="column"/> of <paramref name="group"/>.</summary>
    public static async ValueTask<ParquetColumnChunk> ReadAsync(ParquetRowGroupReader group, ParquetColumn column, CancellationToken cancellationToken) =>
        column.Leaf.ClrType switch
        {
            var t when t == typeof(bool) => await ParquetColumnChunk<bool>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(sbyte) => await ParquetColumnChunk<sbyte>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(byte) => await ParquetColumnChunk<byte>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(short) => await ParquetColumnChunk<short>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(ushort) => await ParquetColumnChunk<ushort>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(int) => await ParquetColumnChunk<int>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(uint) => await ParquetColumnChunk<uint>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(long) => await ParquetColumnChunk<long>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(ulong) => await ParquetColumnChunk<ulong>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(Half) => await ParquetColumnChunk<Half>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(float) => await ParquetColumnChunk<float>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(double) => await ParquetColumnChunk<double>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(decimal) => await ParquetColumnChunk<decimal>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(BigDecimal) => await ParquetColumnChunk<BigDecimal>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(ReadOnlyMemory<char>) => await ParquetColumnChunk<ReadOnlyMemory<char>>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(ReadOnlyMemory<byte>) => await ParquetColumnChunk<ReadOnlyMemory<byte>>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(DateTime) => await ParquetColumnChunk<DateTime>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(DateOnly) => await ParquetColumnChunk<DateOnly>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t when t == typeof(Guid) => await ParquetColumnChunk<Guid>.ReadTypedAsync(group, column, cancellationToken).ConfigureAwait(false),
            var t => throw new InvalidOperationException($"column '{column.Name}' has values of {t.Name}, which the plan should have refused"),
        };

    /// <summary>The value of row <paramref name="row"/> (0-based within the row group).</summary>
    public abstract TypedField Cell(int row);

    public abstract void Dispose();
}

/// <summary>A column chunk of values of <typeparamref name="T"/>.</summary>
internal sealed class ParquetColumnChunk<T> : ParquetColumnChunk
    where T : struct
{
    private readonly ParquetColumn _column;
    private readonly T[] _values;
    private readonly int[]? _definitions;
    private readonly int[]? _repetitions;

    // Flat columns: where each row's value is among the values, -1 for a null. Lists: where each row's entries start.
    private readonly int[] _rowIndex;
    private readonly int _rows;
    private readonly int _levelCount;

    private ParquetColumnChunk(ParquetColumn column, T[] values, int[]? definitions, int[]? repetitions, int levelCount, int rows)
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
        var count = checked((int)(group.GetMetadata(leaf)?.MetaData?.NumValues
            ?? throw new InvalidDataException($"the row group has no data for column '{column.Name}'")));
        var rows = checked((int)group.RowCount);
        var values = ArrayPool<T>.Shared.Rent(Math.Max(count, 1));
        var definitions = leaf.MaxDefinitionLevel > 0 ? ArrayPool<int>.Shared.Rent(Math.Max(count, 1)) : null;
        var repetitions = leaf.MaxRepetitionLevel > 0 ? ArrayPool<int>.Shared.Rent(Math.Max(count, 1)) : null;
        try
        {
            await group.ReadRawAsync(leaf, values.AsMemory(), definitions?.AsMemory(), repetitions?.AsMemory(), cancellationToken).ConfigureAwait(false);
            return new ParquetColumnChunk<T>(column, values, definitions, repetitions, count, rows);
        }
        catch
        {
            Return(values, definitions, repetitions);
            throw;
        }
    }

    public override TypedField Cell(int row)
    {
        if (_column.Type == ColumnType.Json)
        {
            return ListCell(row);
        }

        var index = _rowIndex[row];
        return index < 0 ? TypedField.Null : ParquetValueConverter.Convert(_values[index], _column, _column.Type);
    }

    public override void Dispose()
    {
        Return(_values, _definitions, _repetitions);
        ArrayPool<int>.Shared.Return(_rowIndex);
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
            if (_levelCount != _rows)
            {
                throw new InvalidDataException($"column '{_column.Name}' has {_levelCount:N0} values for {_rows:N0} rows");
            }

            var max = _column.Leaf.MaxDefinitionLevel;
            var next = 0;
            for (var row = 0; row < _rows; row++)
            {
                _rowIndex[row] = _definitions is null || _definitions[row] == max ? next++ : -1;
            }

            return;
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

                ParquetJson.Write(writer, element.Property);
            }

            writer.WriteEndArray();
        }

        return TypedField.Of(EntityProperty.FromJson(_column.Property, System.Text.Encoding.UTF8.GetString(buffer.WrittenSpan)));
    }
}
