using Parquet;
using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>A single-value column chunk of values of <typeparamref name="T"/>, one per row, unboxed; nulls marked beside them.</summary>
internal sealed class ParquetValueChunk<T> : ParquetColumnChunk
    where T : struct
{
    private readonly ParquetColumn _column;
    private readonly ParquetSlices<T> _values;
    private readonly ulong[]? _nulls;

    private ParquetValueChunk(ParquetColumn column, ParquetSlices<T> values, ulong[]? nulls)
    {
        _column = column;
        _values = values;
        _nulls = nulls;
    }

    public static async ValueTask<ParquetColumnChunk> ReadValuesAsync(ParquetRowGroupReader group, ParquetColumn column, int rows, ParquetScratch scratch, CancellationToken cancellationToken)
    {
        var values = scratch.Values<T>(rows);
        try
        {
            var nulls = await ReadPerRowAsync(group, column, values, rows, scratch, cancellationToken).ConfigureAwait(false);
            return new ParquetValueChunk<T>(column, ParquetSlices<T>.Of(values.AsSpan(0, rows)), nulls);
        }
        finally
        {
            ParquetScratch.Done(values, rows);
        }
    }

    public override TypedField Cell(int row) =>
        IsNull(_nulls, row) ? TypedField.Null : ParquetValueConverter.Convert(_values[row], _column);

    public override long HeldBytes => _values.HeldBytes;

    public override long ReleaseBefore(int row) => _values.ReleaseBefore(row);

    public override void Dispose()
    {
        _values.Dispose();
        ReturnNulls(_nulls);
    }
}
