using System.Buffers;
using System.Globalization;
using System.Text;
using System.Text.Json;
using Loader.Abstractions;
using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>
/// The text of one row's fields, made only when asked (for conversions a setting asks for), kept for the row so each
/// span stays valid while the mapper uses it; a cell's text written straight into a key; and the row as a JSON object
/// for a reject. One per thread.
/// </summary>
internal sealed class ParquetRowText(int columns)
{
    private readonly string?[] _strings = new string?[columns];
    private readonly char[]?[] _chars = new char[columns][];
    private readonly int[] _lengths = new int[columns];
    private readonly bool[] _made = new bool[columns];
    private byte[] _utf8 = new byte[64];
    private ParquetRowBatch? _batch;
    private int _row = -1;

    /// <summary>
    /// The text of the row's cell (<see cref="TypedText.Of"/>); empty for a null. A text value is its own string; a number
    /// is formatted straight into characters, the types keys are most made of.
    /// </summary>
    private ReadOnlySpan<char> Text(ParquetRowBatch batch, int row, int column)
    {
        Select(batch, row);
        if (!_made[column])
        {
            Make(batch.Cell(column, row), column);
            _made[column] = true;
        }

        return _strings[column] is { } text ? text : _chars[column].AsSpan(0, _lengths[column]);
    }

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

    /// <summary>The cell's text as UTF-8, valid until the next call.</summary>
    public ReadOnlySpan<byte> Utf8(ParquetRowBatch batch, int row, int column)
    {
        var text = Text(batch, row, column);
        var length = Encoding.UTF8.GetByteCount(text);
        if (_utf8.Length < length)
        {
            _utf8 = new byte[Math.Max(length, _utf8.Length * 2)];
        }

        return _utf8.AsSpan(0, Encoding.UTF8.GetBytes(text, _utf8));
    }

    private void Make(TypedField cell, int column)
    {
        _strings[column] = null;
        if (!cell.HasValue)
        {
            _strings[column] = "";
            return;
        }

        var value = cell.Property;
        if (value.Type == ColumnType.String)
        {
            _strings[column] = value.AsString();
            return;
        }

        var buffer = _chars[column] ??= new char[32];
        int length;
        while (!TryFormat(value, buffer, out length))
        {
            _chars[column] = buffer = new char[buffer.Length * 2];
        }

        _lengths[column] = length;
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

    private void Select(ParquetRowBatch batch, int row)
    {
        if (!ReferenceEquals(batch, _batch) || row != _row)
        {
            (_batch, _row) = (batch, row);
            Array.Clear(_made);
        }
    }
}
