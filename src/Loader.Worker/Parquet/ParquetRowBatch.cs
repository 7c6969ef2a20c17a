using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>
/// Rows of one row group read together: every column's cells of rows <see cref="FirstRow"/> to
/// <see cref="FirstRow"/> + <see cref="RowCount"/> of the group, valid until its cursor has read two batches more.
/// </summary>
/// <param name="index">The row group's place in the file, from 0.</param>
/// <param name="firstRow">The batch's first row's place in the row group, from 0.</param>
/// <param name="firstRecord">The 1-based record number (the checkpoint's unit) of the batch's first row, counted through the file.</param>
/// <param name="rowCount">The rows read.</param>
/// <param name="columns">The columns' cells of these rows.</param>
/// <param name="owned">What disposing the batch disposes: the cursor of a batch that is its whole row group.</param>
internal sealed class ParquetRowBatch(int index, int firstRow, long firstRecord, int rowCount, IParquetColumnCells[] columns, IDisposable? owned = null) : IDisposable
{
    private readonly IParquetColumnCells[] _columns = columns;

    /// <summary>The row group's place in the file, from 0.</summary>
    public int Index { get; } = index;

    /// <summary>The place in the row group of the batch's first row, from 0.</summary>
    public int FirstRow { get; } = firstRow;

    /// <summary>The 1-based record number (the checkpoint's unit) of the batch's first row, counted through the file.</summary>
    public long FirstRecord { get; } = firstRecord;

    public int RowCount { get; } = rowCount;

    public int ColumnCount => _columns.Length;

    /// <summary>The value of column <paramref name="column"/> (in plan order) in row <paramref name="row"/> of the batch (from 0).</summary>
    public TypedField Cell(int column, int row) => _columns[column].Cell(row);

    /// <summary>Column <paramref name="column"/>'s values of rows <paramref name="firstRow"/> on, one per item of <paramref name="destination"/>.</summary>
    public void CopyCells(int column, int firstRow, Span<TypedField> destination) => _columns[column].CopyTo(firstRow, destination);

    /// <summary>Where row <paramref name="row"/> of the batch stands, as messages name it: <c>row group 2, row 17</c> (1-based).</summary>
    public string Describe(int row) => string.Create(System.Globalization.CultureInfo.InvariantCulture, $"row group {Index + 1}, row {FirstRow + row + 1}");

    public void Dispose() => owned?.Dispose();
}
