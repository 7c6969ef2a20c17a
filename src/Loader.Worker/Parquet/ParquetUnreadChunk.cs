using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>A column the settings leave out and no store could hold: nothing of it is read, and every cell is empty.</summary>
internal sealed class ParquetUnreadChunk : ParquetColumnChunk
{
    public override TypedField Cell(int row) => TypedField.Null;

    public override long HeldBytes => 0;

    public override void Dispose()
    {
    }
}
