namespace Loader.Worker.Parquet;

/// <summary>
/// One column of one row group, read a batch of rows at a time from its first row to its last. Single values are
/// decoded batch by batch, so memory holds a batch of each column whatever the row group's size (a list or map: its
/// row group's levels). A read's cells stay valid until the read after the next: one batch can be mapped while the
/// next is decoded.
/// </summary>
internal abstract class ParquetColumnCursor : IDisposable
{
    /// <summary>Reads the next <paramref name="rows"/> rows; throws when the column has fewer.</summary>
    public abstract IParquetColumnCells Read(int rows);

    /// <summary>Passes over the next <paramref name="rows"/> rows unread.</summary>
    public abstract void Skip(int rows);

    public abstract void Dispose();
}
