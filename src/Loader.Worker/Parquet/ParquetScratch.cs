using System.Runtime.CompilerServices;

namespace Loader.Worker.Parquet;

/// <summary>
/// The buffers one file's column chunks are decoded through, one of each kind, kept from column to column and from row
/// group to row group: the library reads a column chunk whole, into a buffer as long as the group, which is then laid
/// out per row and sliced. Taken from the shared pool instead, a thread of its own per read ahead would leave each of
/// them in the pool's care several times over. One row group of a file is read at a time.
/// </summary>
internal sealed class ParquetScratch
{
    private readonly Dictionary<Type, Array> _values = [];
    private int[] _levels = [];
    private int[] _ids = [];

    // Kept with its capacity: up to MaxShared texts a column, whose table would otherwise be allocated again, in the
    // large object heap, for every text column of every row group.
    private readonly Dictionary<string, int> _distinct = new(StringComparer.Ordinal);

    /// <summary>Room for the definition levels of <paramref name="rows"/> rows.</summary>
    public int[] Levels(int rows) => Fit(ref _levels, rows);

    /// <summary>Room for a text column's numbers of <paramref name="rows"/> rows.</summary>
    public int[] Ids(int rows) => Fit(ref _ids, rows);

    /// <summary>An empty table of a text column's distinct values; left empty again by whoever fills it.</summary>
    public Dictionary<string, int> Distinct()
    {
        _distinct.Clear();
        return _distinct;
    }

    /// <summary>Room for <paramref name="rows"/> values of <typeparamref name="T"/>; give it back by <see cref="Done{T}"/>.</summary>
    public T[] Values<T>(int rows)
    {
        if (_values.TryGetValue(typeof(T), out var held) && held.Length >= rows)
        {
            return (T[])held;
        }

        var values = new T[Math.Max(rows, 1)];
        _values[typeof(T)] = values;
        return values;
    }

    /// <summary>Lets go of what <paramref name="values"/> refers to (the library's arrays per value), so the buffer holds no more than its own length.</summary>
    public static void Done<T>(T[] values, int rows)
    {
        ArgumentNullException.ThrowIfNull(values);
        if (RuntimeHelpers.IsReferenceOrContainsReferences<T>())
        {
            Array.Clear(values, 0, Math.Min(rows, values.Length));
        }
    }

    private static int[] Fit(ref int[] buffer, int rows)
    {
        if (buffer.Length < rows)
        {
            buffer = new int[Math.Max(rows, 1)];
        }

        return buffer;
    }
}
