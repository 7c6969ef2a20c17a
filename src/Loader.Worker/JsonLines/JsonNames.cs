using System.Text;

namespace Loader.Worker.JsonLines;

/// <summary>
/// The paths the first object named, found by their UTF-8 bytes without a string per property: its leaves first (the
/// columns, in order), then the objects that held them. Each line names them again, mostly in the same order, so the name
/// that followed the last one matched is tried first. Read-only once made: shared by the parsing threads.
/// </summary>
internal sealed class JsonNames
{
    private readonly string[] _names;
    private readonly byte[][] _utf8;
    private readonly int[] _following;
    private readonly Dictionary<string, int> _index;
    private readonly Dictionary<string, int>.AlternateLookup<ReadOnlySpan<char>> _lookup;

    /// <param name="columns">The first object's leaf paths, in order.</param>
    /// <param name="order">Every path the first object named (leaves and the objects holding them), in the order it named them.</param>
    public JsonNames(IReadOnlyList<string> columns, IReadOnlyList<string> order)
    {
        _index = new Dictionary<string, int>(StringComparer.Ordinal);
        var names = new List<string>();
        foreach (var name in columns.Concat(order))
        {
            if (_index.TryAdd(name, names.Count))
            {
                names.Add(name);
            }
        }

        _lookup = _index.GetAlternateLookup<ReadOnlySpan<char>>();
        Columns = columns;
        _names = [.. names];
        _utf8 = [.. names.Select(Encoding.UTF8.GetBytes)];
        _following = new int[_index.Count + 1];
        Array.Fill(_following, -1);
        var previous = _index.Count; // the slot before the first name
        foreach (var name in order)
        {
            var index = _index[name];
            _following[previous] = index;
            previous = index;
        }
    }

    /// <summary>No names yet: what the first object is read with.</summary>
    public static JsonNames None { get; } = new([], []);

    /// <summary>The first object's leaf paths: names 0 to <c>Columns.Count - 1</c>.</summary>
    public IReadOnlyList<string> Columns { get; }

    /// <summary>How many names there are, columns and objects.</summary>
    public int Count => _utf8.Length;

    /// <summary>The hint for the first name of an object line.</summary>
    public int Start => _following[^1];

    /// <summary>The name the first object named after <paramref name="index"/>: the likely next one.</summary>
    public int Following(int index) => _following[index];

    public string this[int index] => _names[index];

    /// <summary>The index of the path <paramref name="utf8"/>, trying <paramref name="hint"/> first; -1 when the first object did not name it.</summary>
    public int Find(ReadOnlySpan<byte> utf8, int hint)
    {
        if (hint >= 0 && utf8.SequenceEqual(_utf8[hint]))
        {
            return hint;
        }

        if (_index.Count == 0)
        {
            return -1;
        }

        var chars = utf8.Length <= 256 ? stackalloc char[utf8.Length] : new char[utf8.Length];
        var length = Encoding.UTF8.GetChars(utf8, chars);
        return _lookup.TryGetValue(chars[..length], out var index) ? index : -1;
    }
}
