using Loader.Abstractions;
using Loader.Worker.Records;
using ParquetSharp;

namespace Loader.Worker.Parquet;

/// <summary>
/// A single-value text column's values: each turned, as it is read, into the number of its string in the file's
/// <see cref="ParquetTextTable"/>, or, once the table is full, kept as characters made a string only when its cell is
/// taken. The UTF-8 of a page lives only until the next one is decoded. Invalid UTF-8 becomes U+FFFD, as the decoding
/// of a string always did.
/// </summary>
internal sealed class ParquetTextValues(ColumnReader<ByteArray> reader, ParquetLeafType leaf, ParquetTextTable table) : ParquetLeafValues
{
    private ColumnReader<ByteArray> _reader = reader;
    private const int RecentBits = 11;

    private ByteArray[] _read = new ByteArray[256];

    // The values met lately, by address: a dictionary page's values point into its dictionary, which lasts the column chunk,
    // so a value met again has the address it had. Within the reader's last call (one call decodes within one page) an
    // address met again is the same value; one met in an earlier call may since hold other bytes (a plain page's addresses
    // hold only while the page does), so its bytes are compared with the shared string's. A value found here costs no
    // hash of its bytes, nor a search of the table.
    private readonly Recent[] _recent = new Recent[1 << RecentBits];
    private int _call;

    // Per value: the number of its shared string, or for a text of its own, -1 - its place among _ownStarts.
    private int[] _ids = new int[256];
    private char[] _chars = new char[256];
    private char[] _ownChars = [];
    private int[] _ownStarts = [0];
    private int _ownCount;
    private int _count;

    public override int Count => _count;

    public override TypedField Convert(int index)
    {
        var id = _ids[index];
        if (id >= 0)
        {
            return TypedField.Of(EntityProperty.FromString(leaf.Column.Property, table[id]));
        }

        var own = -1 - id;
        return TypedField.Of(EntityProperty.FromString(leaf.Column.Property, new string(_ownChars, _ownStarts[own], _ownStarts[own + 1] - _ownStarts[own])));
    }

    public override void Clear()
    {
        _count = 0;
        _ownCount = 0;
    }

    public override long Skip(long levels) => _reader.Skip(levels);

    public override void Bind(ColumnReader reader) => _reader = (ColumnReader<ByteArray>)reader;

    protected override int ReadBatch(int levels, Span<short> definitions, Span<short> repetitions)
    {
        Fit(ref _read, levels, 0);
        var read = _reader.ReadBatch(levels, definitions, repetitions, _read.AsSpan(0, levels), out var values);
        Fit(ref _ids, _count + (int)values, _count);
        if (++_call == 0)
        {
            Array.Clear(_recent);
            _call = 1;
        }

        for (var i = 0; i < values; i++)
        {
            var value = _read[i];
            ref var recent = ref _recent[(int)((ulong)value.Pointer * 0x9E3779B97F4A7C15UL >> (64 - RecentBits))];
            var utf8 = ParquetNativeBytes.Of(value);
            if (recent.Pointer == value.Pointer && recent.Length == value.Length && (recent.Call == _call || (recent.Id >= 0 && table.Holds(recent.Id, utf8))))
            {
                _ids[_count++] = recent.Id;
                continue;
            }

            var id = table.IdOf(utf8);
            id = id >= 0 ? id : -1 - Own(utf8);
            recent = new Recent(value.Pointer, value.Length, _call, id);
            _ids[_count++] = id;
        }

        return (int)read;
    }

    private readonly record struct Recent(nint Pointer, int Length, int Call, int Id);

    /// <summary>Keeps a text the table has no room for; its place among the texts kept.</summary>
    private int Own(ReadOnlySpan<byte> utf8)
    {
        Fit(ref _chars, utf8.Length, 0);
        var text = _chars.AsSpan(0, System.Text.Encoding.UTF8.GetChars(utf8, _chars));
        var start = _ownStarts[_ownCount];
        Fit(ref _ownChars, start + text.Length, start);
        text.CopyTo(_ownChars.AsSpan(start));
        Fit(ref _ownStarts, _ownCount + 2, _ownCount + 1);
        _ownStarts[++_ownCount] = start + text.Length;
        return _ownCount - 1;
    }
}
