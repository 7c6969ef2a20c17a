using System.Buffers;
using Loader.Abstractions;
using Parquet;
using Loader.Worker.Records;

namespace Loader.Worker.Parquet;

/// <summary>
/// A single-value text column chunk: each row holds a number into the chunk's strings, one per distinct value (up to
/// <see cref="MaxShared"/> of them), so rows of the same text share one string, which the mapper writes as it is. Past
/// that many distinct values a row's text is kept as characters in one buffer and made a string only when its cell is
/// read: a row group of mostly unique text would otherwise hold a million long-lived strings (about 40 bytes each for a
/// short value, every one of them marked by each full collection while the group is held), where the characters take
/// two bytes each. The reader's own characters per value are let go once the chunk is indexed.
/// </summary>
internal sealed class ParquetStringChunk : ParquetColumnChunk
{
    // Past this many distinct values a chunk stops adding to them: a column of mostly unique text gains nothing from it.
    internal const int MaxShared = 1 << 16;

    // A row's number: at least 0 for a shared string, this for a null, below it for the row's own characters.
    private const int NullId = -1;

    private readonly ParquetColumn _column;
    private readonly ParquetSlices<int> _ids;
    private readonly string[] _strings;
    private readonly int _stringCount;
    private readonly UniqueTexts? _unique;

    private ParquetStringChunk(ParquetColumn column, ParquetSlices<int> ids, string[] strings, int stringCount, UniqueTexts? unique)
    {
        _column = column;
        _ids = ids;
        _strings = strings;
        _stringCount = stringCount;
        _unique = unique;
    }

    public static async ValueTask<ParquetColumnChunk> ReadStringsAsync(ParquetRowGroupReader group, ParquetColumn column, int rows, ParquetScratch scratch, CancellationToken cancellationToken)
    {
        var size = Math.Max(rows, 1);
        var texts = scratch.Values<ReadOnlyMemory<char>>(rows);
        string[]? strings = null;
        UniqueTexts? unique = null;
        try
        {
            var nulls = await ReadPerRowAsync(group, column, texts, rows, scratch, cancellationToken).ConfigureAwait(false);
            var ids = scratch.Ids(rows);
            strings = ArrayPool<string>.Shared.Rent(Math.Min(size, 1024));
            var count = Index(texts.AsSpan(0, rows), nulls, ids, scratch.Distinct(), ref strings, ref unique);
            ReturnNulls(nulls);
            return new ParquetStringChunk(column, ParquetSlices<int>.Of(ids.AsSpan(0, rows)), strings, count, unique);
        }
        catch
        {
            if (strings is not null)
            {
                ArrayPool<string>.Shared.Return(strings, clearArray: true);
            }

            unique?.Dispose();
            throw;
        }
        finally
        {
            ParquetScratch.Done(texts, rows);
        }
    }

    public override TypedField Cell(int row) => _ids[row] switch
    {
        >= 0 and var id => TypedField.Of(EntityProperty.FromString(_column.Property, _strings[id])),
        NullId => TypedField.Null,
        var id => TypedField.Of(EntityProperty.FromString(_column.Property, _unique!.Text(NullId - 1 - id))),
    };

    public override long HeldBytes => _ids.HeldBytes + (_unique?.HeldBytes ?? 0);

    public override long ReleaseBefore(int row) => _ids.ReleaseBefore(row);

    public override void Dispose()
    {
        _ids.Dispose();
        Array.Clear(_strings, 0, _stringCount);
        ArrayPool<string>.Shared.Return(_strings);
        _unique?.Dispose();
    }

    /// <summary>
    /// Gives each row the number of its string (<see cref="NullId"/> for a null), making one string per distinct value
    /// while there are few (found through <paramref name="distinct"/>, empty); past <see cref="MaxShared"/> of them, a text
    /// not among them is copied into <paramref name="unique"/>.
    /// </summary>
    private static int Index(ReadOnlySpan<ReadOnlyMemory<char>> texts, ulong[]? nulls, int[] ids, Dictionary<string, int> distinct, ref string[] strings, ref UniqueTexts? unique)
    {
        var lookup = distinct.GetAlternateLookup<ReadOnlySpan<char>>();
        var count = 0;
        for (var row = 0; row < texts.Length; row++)
        {
            if (IsNull(nulls, row))
            {
                ids[row] = NullId;
                continue;
            }

            var text = texts[row].Span;
            if (lookup.TryGetValue(text, out var id))
            {
                ids[row] = id;
                continue;
            }

            if (distinct.Count >= MaxShared)
            {
                unique ??= UniqueTexts.For(texts[row..], nulls, row);
                ids[row] = NullId - 1 - unique.Add(text);
                continue;
            }

            if (count == strings.Length)
            {
                var larger = ArrayPool<string>.Shared.Rent(count * 2);
                strings.AsSpan(0, count).CopyTo(larger);
                ArrayPool<string>.Shared.Return(strings, clearArray: true);
                strings = larger;
            }

            id = count++;
            strings[id] = new string(text);
            distinct.Add(strings[id], id);
            ids[row] = id;
        }

        distinct.Clear();
        return count;
    }

    /// <summary>The texts of a chunk's rows not shared with others: their characters end to end, and where each starts.</summary>
    private sealed class UniqueTexts : IDisposable
    {
        private readonly char[] _chars;
        private readonly int[] _starts;
        private int _count;

        private UniqueTexts(int chars, int texts)
        {
            _chars = ArrayPool<char>.Shared.Rent(Math.Max(chars, 1));
            _starts = ArrayPool<int>.Shared.Rent(texts + 1);
            _starts[0] = 0;
        }

        /// <summary>Room for every text from <paramref name="first"/> on (the rows left, of which <paramref name="texts"/> is the rest).</summary>
        public static UniqueTexts For(ReadOnlySpan<ReadOnlyMemory<char>> texts, ulong[]? nulls, int first)
        {
            var chars = 0L;
            for (var i = 0; i < texts.Length; i++)
            {
                if (!IsNull(nulls, first + i))
                {
                    chars += texts[i].Length;
                }
            }

            return new UniqueTexts(checked((int)chars), texts.Length);
        }

        /// <summary>Copies <paramref name="text"/> in; its number among these texts.</summary>
        public int Add(ReadOnlySpan<char> text)
        {
            var start = _starts[_count];
            text.CopyTo(_chars.AsSpan(start));
            _starts[++_count] = start + text.Length;
            return _count - 1;
        }

        public long HeldBytes => ((long)_chars.Length * sizeof(char)) + ((long)_starts.Length * sizeof(int));

        public string Text(int index) => new(_chars, _starts[index], _starts[index + 1] - _starts[index]);

        public void Dispose()
        {
            ArrayPool<char>.Shared.Return(_chars);
            ArrayPool<int>.Shared.Return(_starts);
        }
    }
}
