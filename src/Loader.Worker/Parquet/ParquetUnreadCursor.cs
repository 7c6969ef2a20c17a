using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>A column the settings leave out and no store could hold: nothing of it is read, and every cell is empty.</summary>
internal sealed class ParquetUnreadCursor : ParquetColumnCursor, IParquetColumnCells
{
    public override IParquetColumnCells Read(int rows) => this;

    public override void Skip(int rows)
    {
    }

    public TypedField Cell(int row) => TypedField.Null;

    public void CopyTo(int firstRow, Span<TypedField> destination) => destination.Clear();

    public override void Dispose()
    {
    }
}
