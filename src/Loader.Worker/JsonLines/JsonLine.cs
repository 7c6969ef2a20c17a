using Loader.Abstractions;
using Loader.Worker.Records;

namespace Loader.Worker.JsonLines;

/// <summary>
/// One JSON object of the input, parsed: its line's bytes and each leaf value found at its path. Values are slices of the
/// line, or of <see cref="Unescaped"/> for strings that held escapes.
/// </summary>
internal sealed class JsonLine(byte[] raw, int rawLength, RowOrigin origin)
{
    private readonly List<Leaf> _extras = [];
    private Leaf[] _columns = [];

    public RowOrigin Origin => origin;

    public ReadOnlySpan<byte> Raw => raw.AsSpan(0, rawLength);

    /// <summary>Strings that held escapes, unescaped (the line keeps them as written).</summary>
    public byte[] Unescaped { get; set; } = [];

    public int ColumnCount => _columns.Length;

    public int ExtraCount => _extras.Count;

    /// <summary>A value found at a path: where its UTF-8 text is (in the line, or unescaped) and what it holds.</summary>
    internal readonly record struct Leaf(string Path, FieldKind Kind, bool InUnescaped, int Start, int Length)
    {
        public static Leaf None { get; } = new("", FieldKind.Text, false, 0, 0);
    }

    internal void SetColumns(int count)
    {
        _columns = new Leaf[count];
        Array.Fill(_columns, Leaf.None);
    }

    internal void SetColumn(int column, Leaf leaf) => _columns[column] = leaf;

    internal void AddExtra(Leaf leaf) => _extras.Add(leaf);

    private Leaf At(int field) => field < _columns.Length ? _columns[field] : _extras[field - _columns.Length];

    public string ExtraName(int field) => _extras[field - _columns.Length].Path;

    public ReadOnlySpan<byte> Value(int field)
    {
        var leaf = At(field);
        return (leaf.InUnescaped ? Unescaped : raw).AsSpan(leaf.Start, leaf.Length);
    }

    public FieldKind KindOf(int field) => At(field).Kind;
}
