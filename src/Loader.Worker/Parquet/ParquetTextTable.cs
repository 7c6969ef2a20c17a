using System.IO.Hashing;
using System.Security.Cryptography;

namespace Loader.Worker.Parquet;

/// <summary>
/// The strings of one text column of a file, one per distinct value, shared by every row holding it (airports,
/// carriers, statuses): a row waits as an entity in a partial batch, and a string per row would be one more object for
/// every collection to trace. Values are found by their UTF-8 bytes, so a value already held costs a hash and a compare,
/// not a decoding. Up to <see cref="MaxShared"/> values; a column of mostly unique text gains nothing from it, and its
/// values past the limit are made strings one by one. Once the table is full and few values are found in it (a tail
/// number, an id), it is no longer searched: a search of a large table costs a cache miss for nothing. Filled on the
/// decoding thread only; read by the mapping threads.
/// </summary>
internal sealed class ParquetTextTable
{
    /// <summary>Distinct values a column shares before it stops adding them.</summary>
    internal const int MaxShared = 1 << 16;

    // Searches of a full table after which it is judged worth searching still, or not.
    private const int SearchesJudged = 4096;

    private readonly Dictionary<byte[], int> _ids = new(Utf8Comparer.Instance);
    private readonly Dictionary<byte[], int>.AlternateLookup<ReadOnlySpan<byte>> _lookup;
    private string[] _strings = new string[64];

    // Each shared string's UTF-8, to check a value met again at an address it had before (read on the decoding thread only).
    private byte[][] _utf8 = new byte[64][];

    // Searches since the table filled, and how many found their value.
    private int _searchesWhenFull;
    private int _foundWhenFull;
    private bool _searchNoMore;

    public ParquetTextTable() => _lookup = _ids.GetAlternateLookup<ReadOnlySpan<byte>>();

    /// <summary>The shared string numbered <paramref name="id"/>.</summary>
    public string this[int id] => Volatile.Read(ref _strings)[id];

    /// <summary>Whether <paramref name="utf8"/> is the text of shared string <paramref name="id"/>; on the decoding thread only.</summary>
    public bool Holds(int id, ReadOnlySpan<byte> utf8) => utf8.SequenceEqual(_utf8[id]);

    /// <summary>The number of the shared string of <paramref name="utf8"/>, made now if there is room; -1 when there is none.</summary>
    public int IdOf(ReadOnlySpan<byte> utf8)
    {
        if (_searchNoMore)
        {
            return -1;
        }

        var full = _ids.Count >= MaxShared;
        if (full && ++_searchesWhenFull == SearchesJudged)
        {
            // Fewer than one value in four found: the column's values rarely repeat.
            _searchNoMore = _foundWhenFull * 4 < SearchesJudged;
        }

        if (_lookup.TryGetValue(utf8, out var id))
        {
            _foundWhenFull += full ? 1 : 0;
            return id;
        }

        if (full)
        {
            return -1;
        }

        id = _ids.Count;
        if (id == _strings.Length)
        {
            // A new array, not resized in place: mapping threads may be reading the old one's strings.
            var larger = new string[_strings.Length * 2];
            _strings.CopyTo(larger, 0);
            Volatile.Write(ref _strings, larger);
            Array.Resize(ref _utf8, larger.Length);
        }

        _strings[id] = System.Text.Encoding.UTF8.GetString(utf8);
        _utf8[id] = utf8.ToArray();
        _ids.Add(_utf8[id], id);
        return id;
    }

    /// <summary>
    /// UTF-8 bytes compared as bytes, hashed with a seed of this process's own: a file whose values were made to collide
    /// under a known hash cannot turn every lookup into a walk of the whole table.
    /// </summary>
    private sealed class Utf8Comparer : IEqualityComparer<byte[]>, IAlternateEqualityComparer<ReadOnlySpan<byte>, byte[]>
    {
        public static readonly Utf8Comparer Instance = new();

        private static readonly long s_seed = BitConverter.ToInt64(RandomNumberGenerator.GetBytes(sizeof(long)));

        public bool Equals(byte[]? x, byte[]? y) => x.AsSpan().SequenceEqual(y);

        public int GetHashCode(byte[] obj) => GetHashCode(obj.AsSpan());

        public bool Equals(ReadOnlySpan<byte> alternate, byte[] other) => alternate.SequenceEqual(other);

        public int GetHashCode(ReadOnlySpan<byte> alternate) => (int)XxHash3.HashToUInt64(alternate, s_seed);

        public byte[] Create(ReadOnlySpan<byte> alternate) => alternate.ToArray();
    }
}
