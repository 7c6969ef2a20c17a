using System.IO.Hashing;
using System.Security.Cryptography;

namespace Loader.Worker.Parquet;

/// <summary>
/// The strings of one text column of a file, one per distinct value, shared by every row holding it (airports,
/// carriers, statuses): a row waits as an entity in a partial batch, and a string per row would be one more object for
/// every collection to trace. Values are found by their UTF-8 bytes, so a value already held costs a hash and a compare,
/// not a decoding. Up to <see cref="MaxShared"/> values; a column of mostly unique text gains nothing from it, and its
/// values past the limit are made strings one by one. Filled on the decoding thread only; read by the mapping threads.
/// </summary>
internal sealed class ParquetTextTable
{
    /// <summary>Distinct values a column shares before it stops adding them.</summary>
    internal const int MaxShared = 1 << 16;

    private readonly Dictionary<byte[], int> _ids = new(Utf8Comparer.Instance);
    private readonly Dictionary<byte[], int>.AlternateLookup<ReadOnlySpan<byte>> _lookup;
    private string[] _strings = new string[64];

    public ParquetTextTable() => _lookup = _ids.GetAlternateLookup<ReadOnlySpan<byte>>();

    /// <summary>The shared string numbered <paramref name="id"/>.</summary>
    public string this[int id] => Volatile.Read(ref _strings)[id];

    /// <summary>The number of the shared string of <paramref name="utf8"/>, made now if there is room; -1 when there is none.</summary>
    public int IdOf(ReadOnlySpan<byte> utf8)
    {
        if (_lookup.TryGetValue(utf8, out var id))
        {
            return id;
        }

        if (_ids.Count >= MaxShared)
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
        }

        _strings[id] = System.Text.Encoding.UTF8.GetString(utf8);
        _lookup.TryAdd(utf8, id);
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
