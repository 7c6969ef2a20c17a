using System.Buffers;
using System.Globalization;
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
    private ParquetRowBatch? _group;
    private int _row = -1;

    public ReadOnlySpan<byte> Utf8(ParquetRowBatch group, int row, int column)
    {
        Select(group, row);
        if (!_made[column])
        {
            var cell = group.Cell(column, row);
            var buffer = _texts[column] ??= new byte[32];
            var length = 0;
            while (cell.HasValue && !TryFormat(cell.Property, buffer, out length))
            {
                _texts[column] = buffer = new byte[buffer.Length * 2];
            }

            _lengths[column] = length;
            _made[column] = true;
        }

        return _texts[column].AsSpan(0, _lengths[column]);
    }

    /// <summary><see cref="TypedText.Of"/>'s text as UTF-8, written straight into <paramref name="destination"/> for the types keys are most made of.</summary>
    private static bool TryFormat(EntityProperty value, Span<byte> destination, out int written)
    {
        switch (value.Type)
        {
            case ColumnType.String:
                return Encoding.UTF8.TryGetBytes(value.AsString(), destination, out written);
            case ColumnType.Int32:
                return value.AsInt32().TryFormat(destination, out written, default, CultureInfo.InvariantCulture);
            case ColumnType.Int64:
                return value.AsInt64().TryFormat(destination, out written, default, CultureInfo.InvariantCulture);
            case ColumnType.Double:
                return value.AsDouble().TryFormat(destination, out written, "R", CultureInfo.InvariantCulture);
            default:
                return Encoding.UTF8.TryGetBytes(TypedText.Of(value), destination, out written);
        }
    }

    /// <summary>The row as a JSON object of its columns (a null as null, a refused value as null): a reject's text.</summary>
    public static byte[] Json(ParquetRowBatch group, int row, IReadOnlyList<ParquetColumn> columns)
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
                else
                {
                    PropertyJson.Write(writer, cell.Property);
                }
            }

            writer.WriteEndObject();
        }

        return buffer.WrittenSpan.ToArray();
    }

    private void Select(ParquetRowBatch group, int row)
    {
        if (!ReferenceEquals(group, _group) || row != _row)
        {
            (_group, _row) = (group, row);
            Array.Clear(_made);
        }
    }
}
