using System.Buffers;
using Loader.Abstractions;
using Parquet;
using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>
/// A single-value text column chunk: each row holds a number into the chunk's strings, one per distinct value (up to
/// <see cref="MaxShared"/> of them; a string per value past that), so rows of the same text share one string, which the
/// mapper writes as it is. The reader's own characters per value are let go once the chunk is indexed.
/// </summary>
internal sealed class ParquetStringChunk : ParquetColumnChunk
{
    // Past this many distinct values a chunk stops adding to them: a column of mostly unique text gains nothing from it.
    private const int MaxShared = 1 << 16;

    private readonly ParquetColumn _column;
    private readonly int[] _ids;
    private readonly string[] _strings;
    private readonly int _stringCount;

    private ParquetStringChunk(ParquetColumn column, int[] ids, string[] strings, int stringCount)
    {
        _column = column;
        _ids = ids;
        _strings = strings;
        _stringCount = stringCount;
    }

    public static async ValueTask<ParquetColumnChunk> ReadStringsAsync(ParquetRowGroupReader group, ParquetColumn column, int rows, int[] levels, CancellationToken cancellationToken)
    {
        var size = Math.Max(rows, 1);
        var texts = ArrayPool<ReadOnlyMemory<char>>.Shared.Rent(size);
        int[]? ids = null;
        string[]? strings = null;
        try
        {
            var nulls = await ReadPerRowAsync(group, column, texts, rows, levels, cancellationToken).ConfigureAwait(false);
            ids = ArrayPool<int>.Shared.Rent(size);
            strings = ArrayPool<string>.Shared.Rent(Math.Min(size, 1024));
            var count = Index(texts.AsSpan(0, rows), nulls, ids, ref strings);
            ReturnNulls(nulls);
            return new ParquetStringChunk(column, ids, strings, count);
        }
        catch
        {
            if (ids is not null)
            {
                ArrayPool<int>.Shared.Return(ids);
            }

            if (strings is not null)
            {
                ArrayPool<string>.Shared.Return(strings, clearArray: true);
            }

            throw;
        }
        finally
        {
            ArrayPool<ReadOnlyMemory<char>>.Shared.Return(texts, clearArray: true);
        }
    }

    public override TypedField Cell(int row) => _ids[row] is var id and >= 0
        ? TypedField.Of(EntityProperty.FromString(_column.Property, _strings[id]))
        : TypedField.Null;

    public override void Dispose()
    {
        ArrayPool<int>.Shared.Return(_ids);
        Array.Clear(_strings, 0, _stringCount);
        ArrayPool<string>.Shared.Return(_strings);
    }

    /// <summary>Gives each row the number of its string (-1 for a null), making one string per distinct value while there are few.</summary>
    private static int Index(ReadOnlySpan<ReadOnlyMemory<char>> texts, ulong[]? nulls, int[] ids, ref string[] strings)
    {
        var distinct = new Dictionary<string, int>(StringComparer.Ordinal);
        var lookup = distinct.GetAlternateLookup<ReadOnlySpan<char>>();
        var count = 0;
        for (var row = 0; row < texts.Length; row++)
        {
            if (IsNull(nulls, row))
            {
                ids[row] = -1;
                continue;
            }

            var text = texts[row].Span;
            if (!lookup.TryGetValue(text, out var id))
            {
                if (count == strings.Length)
                {
                    var larger = ArrayPool<string>.Shared.Rent(count * 2);
                    strings.AsSpan(0, count).CopyTo(larger);
                    ArrayPool<string>.Shared.Return(strings, clearArray: true);
                    strings = larger;
                }

                id = count++;
                strings[id] = new string(text);
                if (distinct.Count < MaxShared)
                {
                    distinct.Add(strings[id], id);
                }
            }

            ids[row] = id;
        }

        return count;
    }
}
