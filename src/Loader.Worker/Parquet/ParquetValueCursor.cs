using ParquetSharp;

namespace Loader.Worker.Parquet;

/// <summary>
/// A single-value column (a top-level column or a struct's field) of one row group: its reader, read into the file's
/// buffers for the column (<see cref="ParquetValueBuffers"/>), where each row's cell is its value, or a null where its
/// definition level is short of the leaf's.
/// </summary>
internal sealed class ParquetValueCursor : ParquetColumnCursor
{
    private readonly ColumnReader _reader;
    private readonly ParquetValueBuffers _buffers;

    public ParquetValueCursor(ColumnReader reader, ParquetValueBuffers buffers)
    {
        _reader = reader;
        _buffers = buffers;
        buffers.Bind(reader);
    }

    public override IParquetColumnCells Read(int rows) => _buffers.Read(rows);

    public override void Skip(int rows) => _buffers.Skip(rows);

    public override void Dispose() => _reader.Dispose();
}
