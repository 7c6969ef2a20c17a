using Loader.Worker.Records;
using ParquetSharp;

namespace Loader.Worker.Parquet;

/// <summary>
/// The values one leaf column's reader has decoded since it was last cleared, in the order they are stored (a null has
/// none: its place shows in the definition levels read beside them), each converted to its property when asked.
/// </summary>
internal abstract class ParquetLeafValues
{
    /// <summary>Values held.</summary>
    public abstract int Count { get; }

    /// <summary>
    /// The values of <paramref name="reader"/>, a leaf of <paramref name="leaf"/>'s physical type: fixed-size values held
    /// as the reader gives them, bytes copied out (they live only as long as their page), text of a single-value column
    /// turned into shared strings through <paramref name="texts"/>.
    /// </summary>
    public static ParquetLeafValues For(ColumnReader reader, ParquetLeafType leaf, ParquetTextTable? texts) => reader switch
    {
        ColumnReader<int> ints => new ParquetFixedValues<int>(ints, leaf),
        ColumnReader<double> doubles => new ParquetFixedValues<double>(doubles, leaf),
        ColumnReader<long> longs => new ParquetFixedValues<long>(longs, leaf),
        ColumnReader<bool> bools => new ParquetFixedValues<bool>(bools, leaf),
        ColumnReader<float> floats => new ParquetFixedValues<float>(floats, leaf),
        ColumnReader<Int96> int96s => new ParquetFixedValues<Int96>(int96s, leaf),
        ColumnReader<ByteArray> bytes when texts is not null && leaf.Column.Kind == ParquetValueKind.String => new ParquetTextValues(bytes, leaf, texts),
        ColumnReader<ByteArray> bytes => new ParquetByteValues(bytes, leaf),
        ColumnReader<FixedLenByteArray> fixedBytes => new ParquetByteValues(fixedBytes, leaf),
        _ => throw new InvalidDataException($"column '{leaf.Column.Name}' is stored as {reader.Type}, which the loader does not read"),
    };

    /// <summary>
    /// Reads up to <paramref name="levels"/> more levels (rows of a single-value column) into the spans (empty when the
    /// leaf has no such levels), appending their values; the levels read, fewer only at the end of the column chunk.
    /// </summary>
    public int Read(int levels, Span<short> definitions, Span<short> repetitions)
    {
        var read = 0;
        while (read < levels)
        {
            var step = ReadBatch(levels - read, definitions.IsEmpty ? definitions : definitions[read..], repetitions.IsEmpty ? repetitions : repetitions[read..]);
            if (step == 0)
            {
                break;
            }

            read += step;
        }

        return read;
    }

    /// <summary>Passes over <paramref name="levels"/> levels unread.</summary>
    public abstract long Skip(long levels);

    /// <summary>
    /// Reads on from <paramref name="reader"/>, the same leaf's reader in the next row group: the values' buffers are kept
    /// from row group to row group, where new ones for each would live through a group and die old, to be collected in
    /// full collections.
    /// </summary>
    public abstract void Bind(ColumnReader reader);

    /// <summary>Value <paramref name="index"/> (among those held) as its property.</summary>
    public abstract TypedField Convert(int index);

    /// <summary>
    /// Converts values into <paramref name="destination"/>, one per item: those numbered in <paramref name="indexes"/> (a
    /// null where the number is -1), or without numbers the values from <paramref name="first"/> on. This loop calls the
    /// conversion per value; fixed-size values, the cheapest to convert, loop with theirs inlined.
    /// </summary>
    public virtual void ConvertTo(Span<TypedField> destination, int first, ReadOnlySpan<int> indexes)
    {
        for (var i = 0; i < destination.Length; i++)
        {
            var index = indexes.IsEmpty ? first + i : indexes[i];
            destination[i] = index >= 0 ? Convert(index) : TypedField.Null;
        }
    }

    /// <summary>Forgets the values held: the next read starts at index 0.</summary>
    public abstract void Clear();

    /// <summary>One call of the reader: at most one page's worth; 0 at the end of the column chunk.</summary>
    protected abstract int ReadBatch(int levels, Span<short> definitions, Span<short> repetitions);

    /// <summary>Grows <paramref name="buffer"/> to hold at least <paramref name="length"/>, keeping its first <paramref name="keep"/> items.</summary>
    protected static void Fit<T>(ref T[] buffer, int length, int keep)
    {
        if (buffer.Length < length)
        {
            var larger = new T[Math.Max(length, buffer.Length * 2)];
            buffer.AsSpan(0, keep).CopyTo(larger);
            buffer = larger;
        }
    }
}
