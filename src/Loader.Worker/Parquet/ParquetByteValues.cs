using Loader.Worker.Records;
using ParquetSharp;

namespace Loader.Worker.Parquet;

/// <summary>
/// A leaf's BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY values (binary, DECIMAL, UUID, FLOAT16, a list's text): each copied out of
/// its page as it is read, end to end in one buffer.
/// </summary>
internal sealed class ParquetByteValues : ParquetLeafValues
{
    private ColumnReader<ByteArray>? _variable;
    private ColumnReader<FixedLenByteArray>? _fixed;
    private readonly ParquetLeafType _leaf;
    private ByteArray[] _read = new ByteArray[256];
    private FixedLenByteArray[] _readFixed = [];
    private byte[] _bytes = new byte[4096];

    // Where value i starts in _bytes; its end is where value i + 1 starts.
    private int[] _starts = new int[257];
    private int _count;

    public ParquetByteValues(ColumnReader<ByteArray> reader, ParquetLeafType leaf)
    {
        _variable = reader;
        _leaf = leaf;
    }

    public ParquetByteValues(ColumnReader<FixedLenByteArray> reader, ParquetLeafType leaf)
    {
        _fixed = reader;
        _leaf = leaf;
        _readFixed = new FixedLenByteArray[256];
    }

    public override int Count => _count;

    public override TypedField Convert(int index) => ParquetValueConverter.FromBytes(_bytes.AsSpan(_starts[index], _starts[index + 1] - _starts[index]), _leaf);

    public override void Clear() => _count = 0;

    public override long Skip(long levels) => _variable?.Skip(levels) ?? _fixed!.Skip(levels);

    public override void Bind(ColumnReader reader)
    {
        if (_variable is not null)
        {
            _variable = (ColumnReader<ByteArray>)reader;
        }
        else
        {
            _fixed = (ColumnReader<FixedLenByteArray>)reader;
        }
    }

    protected override int ReadBatch(int levels, Span<short> definitions, Span<short> repetitions)
    {
        long read;
        long values;
        if (_variable is not null)
        {
            Fit(ref _read, levels, 0);
            read = _variable.ReadBatch(levels, definitions, repetitions, _read.AsSpan(0, levels), out values);
            for (var i = 0; i < values; i++)
            {
                Append(ParquetNativeBytes.Of(_read[i]));
            }
        }
        else
        {
            Fit(ref _readFixed, levels, 0);
            read = _fixed!.ReadBatch(levels, definitions, repetitions, _readFixed.AsSpan(0, levels), out values);
            for (var i = 0; i < values; i++)
            {
                Append(ParquetNativeBytes.Of(_readFixed[i], _leaf.Length));
            }
        }

        return (int)read;
    }

    private void Append(ReadOnlySpan<byte> value)
    {
        var start = _starts[_count];
        Fit(ref _bytes, start + value.Length, start);
        value.CopyTo(_bytes.AsSpan(start));
        Fit(ref _starts, _count + 2, _count + 1);
        _starts[++_count] = start + value.Length;
    }
}
