using System.Buffers;
using System.Runtime.CompilerServices;

namespace Loader.Worker.Parquet;

/// <summary>
/// One column's values of a row group, one per row, held in slices of <see cref="SliceRows"/> rows from the shared pool,
/// so the slices of rows the mapping has passed go back (and count off the read budget) while the later rows are still
/// mapped, and the next row group can be read into them.
/// </summary>
internal sealed class ParquetSlices<T> : IDisposable
{
    internal const int SliceBits = 16;

    /// <summary>Rows per slice.</summary>
    internal const int SliceRows = 1 << SliceBits;

    // A pool of its own: the shared one keeps few arrays of a size, so the slices a row group gives back would be dropped
    // for the collector and made anew for the next group. This one keeps as many as were in use at once.
    private static readonly ArrayPool<T> s_pool = ArrayPool<T>.Create(SliceRows, maxArraysPerBucket: 4096);

    private readonly T[]?[] _slices;
    private readonly int _rows;
    private int _released;

    private ParquetSlices(T[]?[] slices, int rows)
    {
        _slices = slices;
        _rows = rows;
    }

    /// <summary>Bytes the slices not given back yet take.</summary>
    public long HeldBytes { get; private set; }

    /// <summary>Copies <paramref name="values"/> (one per row) into slices.</summary>
    public static ParquetSlices<T> Of(ReadOnlySpan<T> values)
    {
        var slices = new T[]?[(values.Length + SliceRows - 1) >> SliceBits];
        var held = 0L;
        for (var slice = 0; slice < slices.Length; slice++)
        {
            var part = values.Slice(slice << SliceBits, Math.Min(SliceRows, values.Length - (slice << SliceBits)));
            var array = s_pool.Rent(part.Length);
            part.CopyTo(array);
            slices[slice] = array;
            held += (long)array.Length * Unsafe.SizeOf<T>();
        }

        return new ParquetSlices<T>(slices, values.Length) { HeldBytes = held };
    }

    /// <summary>The value of row <paramref name="row"/>, which must not be before the rows given back.</summary>
    public T this[int row] => _slices[row >> SliceBits]![row & (SliceRows - 1)];

    /// <summary>Gives back the slices wholly before row <paramref name="row"/>; the bytes they took.</summary>
    public long ReleaseBefore(int row)
    {
        var before = HeldBytes;
        var end = row >= _rows ? _slices.Length : row >> SliceBits;
        for (; _released < end; _released++)
        {
            Return(_released);
        }

        return before - HeldBytes;
    }

    public void Dispose()
    {
        for (; _released < _slices.Length; _released++)
        {
            Return(_released);
        }
    }

    private void Return(int slice)
    {
        if (_slices[slice] is { } array)
        {
            _slices[slice] = null;
            HeldBytes -= (long)array.Length * Unsafe.SizeOf<T>();
            s_pool.Return(array, clearArray: RuntimeHelpers.IsReferenceOrContainsReferences<T>());
        }
    }
}
