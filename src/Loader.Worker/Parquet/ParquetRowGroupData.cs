using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>
/// One row group of a Parquet input, read: every column's values, typed, from which rows are taken by their place in the
/// group. The load holds the group being mapped and the one read ahead, so memory is bounded by row groups, not the file.
/// </summary>
internal sealed class ParquetRowGroupData : IDisposable
{
    private readonly ParquetColumnChunk[] _columns;

    public ParquetRowGroupData(int index, long firstRecord, int rowCount, ParquetColumnChunk[] columns)
    {
        Index = index;
        FirstRecord = firstRecord;
        RowCount = rowCount;
        _columns = columns;
    }

    /// <summary>The row group's place in the file, from 0.</summary>
    public int Index { get; }

    /// <summary>The 1-based record number (the checkpoint's unit) of the group's first row, counted through the file.</summary>
    public long FirstRecord { get; }

    public int RowCount { get; }

    public int ColumnCount => _columns.Length;

    /// <summary>The value of column <paramref name="column"/> (in plan order) in row <paramref name="row"/> (0-based within the group).</summary>
    public TypedField Cell(int column, int row) => _columns[column].Cell(row);

    public void Dispose()
    {
        foreach (var column in _columns)
        {
            column.Dispose();
        }
    }
}
