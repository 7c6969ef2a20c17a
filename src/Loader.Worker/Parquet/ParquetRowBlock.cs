using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>
/// A few hundred rows of a batch, their cells converted a column at a time into one mapping thread's own buffers, then
/// mapped row by row from there. Taken one by one from the batch, each cell cost two indirect calls, and a key column's
/// cells were converted twice (for the key, then as a property); a block's cells stay in its thread's cache while its
/// rows are mapped. One per mapping thread (<see cref="ParquetRowContext"/>).
/// </summary>
/// <param name="columns">The columns of the rows.</param>
internal sealed class ParquetRowBlock(int columns)
{
    /// <summary>Rows converted together: their cells of 20 columns fit a core's cache.</summary>
    internal const int Rows = 256;

    private readonly TypedField[][] _cells = [.. Enumerable.Range(0, columns).Select(_ => new TypedField[Rows])];
    private ParquetRowBatch? _batch;
    private int _first;

    public int ColumnCount => _cells.Length;

    /// <summary>Converts rows <paramref name="first"/> to <paramref name="first"/> + <paramref name="count"/> (at most <see cref="Rows"/>) of the batch.</summary>
    public void Load(ParquetRowBatch batch, int first, int count)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThan(count, Rows);
        _batch = batch;
        _first = first;
        for (var column = 0; column < _cells.Length; column++)
        {
            batch.CopyCells(column, first, _cells[column].AsSpan(0, count));
        }
    }

    /// <summary>The cell of column <paramref name="column"/> in row <paramref name="row"/> of the block (from 0).</summary>
    public TypedField Cell(int column, int row) => _cells[column][row];

    /// <summary>Where row <paramref name="row"/> of the block stands, as messages name it (<see cref="ParquetRowBatch.Describe"/>).</summary>
    public string Describe(int row) => _batch!.Describe(_first + row);
}
