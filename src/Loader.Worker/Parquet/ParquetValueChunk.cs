using System.Buffers;
using System.Runtime.CompilerServices;
using Parquet;
using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>A single-value column chunk of values of <typeparamref name="T"/>, one per row, unboxed; nulls marked beside them.</summary>
internal sealed class ParquetValueChunk<T> : ParquetColumnChunk
    where T : struct
{
    private readonly ParquetColumn _column;
    private readonly T[] _values;
    private readonly ulong[]? _nulls;

    private ParquetValueChunk(ParquetColumn column, T[] values, ulong[]? nulls)
    {
        _column = column;
        _values = values;
        _nulls = nulls;
    }

    public static async ValueTask<ParquetColumnChunk> ReadValuesAsync(ParquetRowGroupReader group, ParquetColumn column, int rows, int[] levels, CancellationToken cancellationToken)
    {
        var values = ArrayPool<T>.Shared.Rent(Math.Max(rows, 1));
        try
        {
            var nulls = await ReadPerRowAsync(group, column, values, rows, levels, cancellationToken).ConfigureAwait(false);
            return new ParquetValueChunk<T>(column, values, nulls);
        }
        catch
        {
            Return(values);
            throw;
        }
    }

    public override TypedField Cell(int row) =>
        IsNull(_nulls, row) ? TypedField.Null : ParquetValueConverter.Convert(_values[row], _column, _column.Type);

    public override void Dispose()
    {
        Return(_values);
        ReturnNulls(_nulls);
    }

    private static void Return(T[] values) =>
        ArrayPool<T>.Shared.Return(values, clearArray: RuntimeHelpers.IsReferenceOrContainsReferences<T>());
}
