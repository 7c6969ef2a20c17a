using System.Buffers;
using System.Globalization;
using System.Text;
using System.Text.Json;
using Loader.Abstractions;
using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>
/// A Parquet cell's text (<see cref="TypedText.Of"/>): written straight into a key, or as UTF-8 for the conversions a
/// setting asks for; and the row as a JSON object for a reject. One per mapping thread, for its buffers.
/// </summary>
internal sealed class ParquetRowText
{
    private char[] _chars = new char[32];
    private byte[] _utf8 = new byte[64];

    /// <summary>
    /// Writes the cell's text (<see cref="TypedText.Of"/>) into <paramref name="destination"/>: the characters written,
    /// 0 for a null, or -1 when it does not fit. Nothing is kept: a key's parts are written once, into the key.
    /// </summary>
    public static int Write(TypedField cell, Span<char> destination)
    {
        if (!cell.HasValue)
        {
            return 0;
        }

        var value = cell.Property;
        if (value.Type == ColumnType.String)
        {
            var text = value.AsString();
            return text.TryCopyTo(destination) ? text.Length : -1;
        }

        return TryFormat(value, destination, out var written) ? written : -1;
    }

    /// <summary>The cell's text as UTF-8 (empty for a null), valid until the next call.</summary>
    public ReadOnlySpan<byte> Utf8(ParquetRowBlock block, int row, int column)
    {
        var cell = block.Cell(column, row);
        int written;
        while ((written = Write(cell, _chars)) < 0)
        {
            _chars = new char[_chars.Length * 2];
        }

        var text = _chars.AsSpan(0, written);
        var length = Encoding.UTF8.GetByteCount(text);
        if (_utf8.Length < length)
        {
            _utf8 = new byte[Math.Max(length, _utf8.Length * 2)];
        }

        return _utf8.AsSpan(0, Encoding.UTF8.GetBytes(text, _utf8));
    }

    /// <summary><see cref="TypedText.Of"/>'s text, written straight into <paramref name="destination"/> for the numbers keys are most made of.</summary>
    private static bool TryFormat(EntityProperty value, Span<char> destination, out int written)
    {
        switch (value.Type)
        {
            case ColumnType.Int32:
                return value.AsInt32().TryFormat(destination, out written, default, CultureInfo.InvariantCulture);
            case ColumnType.Int64:
                return value.AsInt64().TryFormat(destination, out written, default, CultureInfo.InvariantCulture);
            case ColumnType.Double:
                return value.AsDouble().TryFormat(destination, out written, "R", CultureInfo.InvariantCulture);
            default:
                var text = TypedText.Of(value);
                written = text.Length;
                return text.TryCopyTo(destination);
        }
    }

    /// <summary>The row as a JSON object of its columns (a null as null, a refused value as null): a reject's text.</summary>
    public static byte[] Json(ParquetRowBlock block, int row, IReadOnlyList<ParquetColumn> columns)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            for (var column = 0; column < columns.Count; column++)
            {
                var cell = block.Cell(column, row);
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
}
