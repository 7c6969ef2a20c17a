using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>One column's cells of a batch of rows, as its cursor read them.</summary>
internal interface IParquetColumnCells
{
    /// <summary>The value of row <paramref name="row"/> of the batch (0 is its first row).</summary>
    TypedField Cell(int row);
}
