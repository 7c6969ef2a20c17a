using System.Buffers;
using System.Text;
using System.Text.Json;
using Loader.Abstractions;
using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>
/// The text of one row's fields, made only when asked (for key templates and conversions a setting asks for), kept for
/// the row so each span stays valid while the mapper uses it; and the row as a JSON object for a reject. One per thread.
/// </summary>
internal sealed class ParquetRowText(int columns)
{
    private readonly byte[]?[] _texts = new byte[columns][];
    private readonly int[] _lengths = new int[columns];
    private readonly bool[] _made = new bool[columns];
    private ParquetRowGroupData? _group;
    private int _row = -1;

    public ReadOnlySpan<byte> Utf8(ParquetRowGroupData group, int row, int column)
    {
        Select(group, row);
        if (!_made[column])
        {
            var cell = group.Cell(column, row);
            var text = cell.HasValue ? TypedText.Of(cell.Property) : "";
            var length = Encoding.UTF8.GetByteCount(text);
            if (_texts[column] is not { } buffer || buffer.Length < length)
            {
                _texts[column] = buffer = new byte[Math.Max(length, 32)];
            }

            _lengths[column] = Encoding.UTF8.GetBytes(text, buffer);
            _made[column] = true;
        }

        return _texts[column].AsSpan(0, _lengths[column]);
    }

    /// <summary>The row as a JSON object of its columns (a null as null, a refused value as null): a reject's text.</summary>
    public static byte[] Json(ParquetRowGroupData group, int row, IReadOnlyList<ParquetColumn> columns)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            for (var column = 0; column < columns.Count; column++)
            {
                var cell = group.Cell(column, row);
                writer.WritePropertyName(columns[column].Name);
                if (!cell.HasValue)
                {
                    writer.WriteNullValue();
                }
                else if (cell.Property.Type == ColumnType.Json)
                {
                    writer.WriteRawValue(cell.Property.AsJson(), skipInputValidation: true);
                }
                else
                {
                    ParquetJson.Write(writer, cell.Property);
                }
            }

            writer.WriteEndObject();
        }

        return buffer.WrittenSpan.ToArray();
    }

    private void Select(ParquetRowGroupData group, int row)
    {
        if (!ReferenceEquals(group, _group) || row != _row)
        {
            (_group, _row) = (group, row);
            Array.Clear(_made);
        }
    }
}
