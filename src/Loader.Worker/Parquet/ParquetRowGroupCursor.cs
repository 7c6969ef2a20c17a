namespace Loader.Worker.Parquet;

/// <summary>
/// One row group of a Parquet file, read from its first row to its last a batch at a time (<see cref="Read(int)"/>) or passed
/// over (<see cref="Skip"/>), every column in step. Pages that cannot be decoded are damage named by the file reader.
/// </summary>
/// <param name="file">The file, which names damage.</param>
/// <param name="index">The row group's place in the file, from 0.</param>
/// <param name="rowCount">Its rows.</param>
/// <param name="group">The page reader's row group, disposed with the cursor.</param>
/// <param name="columns">A cursor per column, in plan order.</param>
internal sealed class ParquetRowGroupCursor(ParquetFileReader file, int index, int rowCount, IDisposable group, ParquetColumnCursor[] columns) : IDisposable
{
    /// <summary>The row group's place in the file, from 0.</summary>
    public int Index { get; } = index;

    public int RowCount { get; } = rowCount;

    /// <summary>Rows read or passed over so far.</summary>
    public int Position { get; private set; }

    /// <summary>Rows still to read.</summary>
    public int Remaining => RowCount - Position;

    /// <summary>Reads the next <paramref name="rows"/> rows (at most those left); their cells stay valid until the read after the next.</summary>
    public ParquetRowBatch Read(int rows) => Read(rows, owned: null);

    /// <summary>Reads the next rows as <see cref="Read(int)"/>; disposing the batch disposes <paramref name="owned"/>.</summary>
    internal ParquetRowBatch Read(int rows, IDisposable? owned)
    {
        var count = Math.Min(rows, Remaining);
        var cells = new IParquetColumnCells[columns.Length];
        Step(count, (column, n) => cells[column] = columns[column].Read(n));
        var batch = new ParquetRowBatch(Index, Position, file.FirstRecordOf(Index) + Position, count, cells, owned);
        Position += count;
        return batch;
    }

    /// <summary>Passes over the next <paramref name="rows"/> rows (at most those left) without decoding them.</summary>
    public void Skip(int rows)
    {
        var count = Math.Min(rows, Remaining);
        Step(count, (column, n) => columns[column].Skip(n));
        Position += count;
    }

    public void Dispose()
    {
        foreach (var column in columns)
        {
            column.Dispose();
        }

        group.Dispose();
    }

    private void Step(int rows, Action<int, int> step)
    {
        if (rows == 0)
        {
            return;
        }

        for (var column = 0; column < columns.Length; column++)
        {
            try
            {
                step(column, rows);
            }
            catch (Exception exception)
            {
                file.ThrowFailure(Index, column, exception);
                throw;
            }
        }
    }
}
