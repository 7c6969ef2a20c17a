using Loader.Worker.Records;
using ParquetSharp;

namespace Loader.Worker.Parquet;

/// <summary>A leaf's values of a fixed-size physical type (numbers, booleans, INT96 times), held as the reader decodes them.</summary>
internal sealed class ParquetFixedValues<T>(ColumnReader<T> reader, ParquetLeafType leaf) : ParquetLeafValues
    where T : unmanaged
{
    private ColumnReader<T> _reader = reader;
    private T[] _values = new T[256];
    private int _count;

    public override int Count => _count;

    public override TypedField Convert(int index) => ParquetValueConverter.Convert(_values[index], leaf);

    public override void ConvertTo(Span<TypedField> destination, int first, ReadOnlySpan<int> indexes)
    {
        for (var i = 0; i < destination.Length; i++)
        {
            var index = indexes.IsEmpty ? first + i : indexes[i];
            destination[i] = index >= 0 ? ParquetValueConverter.Convert(_values[index], leaf) : TypedField.Null;
        }
    }

    public override void Clear() => _count = 0;

    public override long Skip(long levels) => _reader.Skip(levels);

    public override void Bind(ColumnReader reader) => _reader = (ColumnReader<T>)reader;

    protected override int ReadBatch(int levels, Span<short> definitions, Span<short> repetitions)
    {
        Fit(ref _values, _count + levels, _count);
        var read = _reader.ReadBatch(levels, definitions, repetitions, _values.AsSpan(_count, levels), out var values);
        _count += (int)values;
        return (int)read;
    }
}
