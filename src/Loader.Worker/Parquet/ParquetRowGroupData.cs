using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>
/// One row group of a Parquet input, read: every column's values, typed, from which rows are taken by their place in the
/// group. The load holds the group being mapped, giving back its rows' values as they are mapped, and what of the next
/// group its read budget lets it read ahead, so memory is bounded by about one row group, not the file.
/// </summary>
internal sealed class ParquetRowGroupData : IDisposable
{
    private readonly ParquetColumnChunk[] _columns;
    private readonly ParquetReadBudget? _budget;

    // budget: what the columns' bytes were counted against (ParquetColumnChunk.HeldBytes), given back as they are let go.
    public ParquetRowGroupData(int index, long firstRecord, int rowCount, ParquetColumnChunk[] columns, ParquetReadBudget? budget = null)
    {
        Index = index;
        FirstRecord = firstRecord;
        RowCount = rowCount;
        _columns = columns;
        _budget = budget;
    }

    /// <summary>The row group's place in the file, from 0.</summary>
    public int Index { get; }

    /// <summary>The 1-based record number (the checkpoint's unit) of the group's first row, counted through the file.</summary>
    public long FirstRecord { get; }

    public int RowCount { get; }

    public int ColumnCount => _columns.Length;

    /// <summary>The value of column <paramref name="column"/> (in plan order) in row <paramref name="row"/> (0-based within the group).</summary>
    public TypedField Cell(int column, int row) => _columns[column].Cell(row);

    /// <summary>Lets go of what only rows before <paramref name="row"/> (0-based) need: the mapping has passed them.</summary>
    public void ReleaseBefore(int row)
    {
        var released = 0L;
        foreach (var column in _columns)
        {
            released += column.ReleaseBefore(row);
        }

        _budget?.Return(released);
    }

    public void Dispose() => Release(_columns, _budget);

    /// <summary>Disposes <paramref name="columns"/>, giving back to <paramref name="budget"/> what they still held.</summary>
    public static void Release(IEnumerable<ParquetColumnChunk> columns, ParquetReadBudget? budget)
    {
        ArgumentNullException.ThrowIfNull(columns);
        var held = 0L;
        foreach (var column in columns)
        {
            held += column.HeldBytes;
            column.Dispose();
        }

        budget?.Return(held);
    }
}
