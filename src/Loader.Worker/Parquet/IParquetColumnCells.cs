using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>One column's cells of a batch of rows, as its cursor read them.</summary>
internal interface IParquetColumnCells
{
    /// <summary>The value of row <paramref name="row"/> of the batch (0 is its first row).</summary>
    TypedField Cell(int row);

    /// <summary>The values of rows <paramref name="firstRow"/> on, one per item of <paramref name="destination"/>.</summary>
    void CopyTo(int firstRow, Span<TypedField> destination)
    {
        for (var i = 0; i < destination.Length; i++)
        {
            destination[i] = Cell(firstRow + i);
        }
    }
}
