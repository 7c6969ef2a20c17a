using System.Buffers;
using Parquet;

using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>
/// One column of one row group, read whole, from which each row's cell is taken in turn. Single values are held one
/// per row in a typed buffer (strings as a number into the group's distinct strings); lists keep their levels. The
/// buffers are pooled and go back when the row group is done.
/// </summary>
internal abstract class ParquetColumnChunk : IDisposable
{
    /// <summary>
    /// Reads <paramref name="column"/> of <paramref name="group"/>; a single-value column is decoded through
    /// <paramref name="scratch"/>'s buffers, which the columns of a file share as each is done with them before the next is read.
    /// </summary>
    public static async ValueTask<ParquetColumnChunk> ReadAsync(ParquetRowGroupReader group, ParquetColumn column, ParquetScratch scratch, CancellationToken cancellationToken)
    {
        if (column.Unread)
        {
            return new ParquetUnreadChunk();
        }

        if (column.Nested is not null)
        {
            return await ParquetNestedChunk.ReadAsync(group, column, cancellationToken).ConfigureAwait(false);
        }

        var rows = checked((int)group.RowCount);
        var count = ValueCount(group, column);
        if (count != rows)
        {
            throw new InvalidDataException($"column '{column.Name}' has {count:N0} values for {rows:N0} rows");
        }

        return await ParquetClrTypes.ReadAsync(column, new SingleValueRead(group, column, rows, scratch, cancellationToken)).ConfigureAwait(false);
    }

    /// <summary>The value of row <paramref name="row"/> (0-based within the row group).</summary>
    public abstract TypedField Cell(int row);

    /// <summary>Bytes the chunk's values hold now, as the read budget counts them.</summary>
    public abstract long HeldBytes { get; }

    /// <summary>
    /// Bytes a column of <paramref name="rows"/> rows will hold once read, before it is read: a value per row (a number
    /// per row for text), or about one per row for a list.
    /// </summary>
    public static long EstimateBytes(ParquetColumn column, long rows)
    {
        ArgumentNullException.ThrowIfNull(column);
        var perRow = column.Type == Loader.Abstractions.ColumnType.Json ? 16
            : column.Leaf.ClrType == typeof(ReadOnlyMemory<char>) ? sizeof(int)
            : System.Runtime.CompilerServices.RuntimeHelpers.SizeOf(column.Leaf.ClrType.TypeHandle);
        return rows * perRow;
    }

    /// <summary>Gives back what rows before <paramref name="row"/> alone need; the bytes given back.</summary>
    public virtual long ReleaseBefore(int row) => 0;

    public abstract void Dispose();

    /// <summary>
    /// Reads a single-value column's values and definition levels, then lays its values out one per row (the reader packs
    /// the defined ones at the front) and marks the nulls; null when the column has none.
    /// </summary>
    protected static async ValueTask<ulong[]?> ReadPerRowAsync<T>(ParquetRowGroupReader group, ParquetColumn column, T[] values, int rows, ParquetScratch scratch, CancellationToken cancellationToken)
        where T : struct
    {
        var leaf = column.Leaf;
        var nullable = leaf.MaxDefinitionLevel > 0;
        var levels = nullable ? scratch.Levels(rows) : [];
        await group.ReadRawAsync(leaf, values.AsMemory(), nullable ? levels.AsMemory() : (Memory<int>?)null, null, cancellationToken).ConfigureAwait(false);
        if (!nullable)
        {
            return null;
        }

        var max = leaf.MaxDefinitionLevel;
        var definitions = levels.AsSpan(0, rows);
        var defined = definitions.Length - CountBelow(definitions, max);
        if (defined == rows)
        {
            return null;
        }

        // From the back, so a value is moved to its row before the row it came from is written.
        var nulls = ArrayPool<ulong>.Shared.Rent((rows + 63) / 64);
        Array.Clear(nulls, 0, (rows + 63) / 64);
        var next = defined - 1;
        for (var row = rows - 1; row >= 0; row--)
        {
            if (definitions[row] == max)
            {
                values[row] = values[next--];
            }
            else
            {
                values[row] = default;
                nulls[row >> 6] |= 1UL << (row & 63);
            }
        }

        return nulls;
    }

    /// <summary>The values (and nulls) <paramref name="group"/> holds of <paramref name="column"/>, by its metadata.</summary>
    internal static int ValueCount(ParquetRowGroupReader group, ParquetColumn column) =>
        checked((int)(group.GetMetadata(column.Leaf)?.MetaData?.NumValues
            ?? throw new InvalidDataException($"the row group has no data for column '{column.Name}'")));

    protected static bool IsNull(ulong[]? nulls, int row) => nulls is not null && (nulls[row >> 6] & (1UL << (row & 63))) != 0;

    protected static void ReturnNulls(ulong[]? nulls)
    {
        if (nulls is not null)
        {
            ArrayPool<ulong>.Shared.Return(nulls);
        }
    }

    private static int CountBelow(ReadOnlySpan<int> definitions, int max)
    {
        var below = 0;
        foreach (var level in definitions)
        {
            if (level != max)
            {
                below++;
            }
        }

        return below;
    }

    /// <summary>A single-value column's read: text as numbers into its distinct strings, any other type unboxed.</summary>
    private sealed class SingleValueRead(ParquetRowGroupReader group, ParquetColumn column, int rows, ParquetScratch scratch, CancellationToken cancellationToken) : IParquetValueRead<ParquetColumnChunk>
    {
        public ValueTask<ParquetColumnChunk> ReadAsync<T>()
            where T : struct =>
            typeof(T) == typeof(ReadOnlyMemory<char>)
                ? ParquetStringChunk.ReadStringsAsync(group, column, rows, scratch, cancellationToken)
                : ParquetValueChunk<T>.ReadValuesAsync(group, column, rows, scratch, cancellationToken);
    }
}
