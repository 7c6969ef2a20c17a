using System.Text;
using System.Text.Json;
using Loader.Worker.Records;

namespace Loader.Worker.JsonLines;

/// <summary>
/// Parses one line as a JSON object with <see cref="Utf8JsonReader"/>: each leaf value at its path (nested names joined
/// with the path separator), strings unescaped, numbers and booleans as written, arrays (and empty objects) as their
/// JSON text, nulls left out. A line that is not one JSON object, or names a property twice, is not a record. Leaves are
/// kept as places in the line (or in the unescaped strings), by column, in buffers reused from line to line: the parsed
/// line is valid until the next. One per parsing thread.
/// </summary>
internal sealed class JsonLineParser
{
    private const int MaxDepth = 64;

    private readonly JsonLinesSettings _settings;
    private readonly JsonNames _names;
    private readonly byte[] _separator;
    private readonly JsonPathStrings _strings = new();

    // By column: the leaf, and the line (its stamp) that set it.
    private readonly Leaf[] _leaves;
    private readonly int[] _present;

    // By name the first object gave (columns and the objects holding them): the line that named it.
    private readonly int[] _named;

    private readonly List<(string Path, Leaf Leaf)> _extras = [];
    private readonly HashSet<string> _namedOthers = new(StringComparer.Ordinal);

    // Only while the first object is read: every path it names, in order.
    private readonly List<string>? _order;

    private int _stamp;
    private int _leafCount;
    private int _hint;
    private bool _refuseNested;
    private string? _problem;
    private byte[] _unescaped = new byte[256];
    private int _unescapedUsed;
    private byte[] _path = new byte[256];

    public JsonLineParser(JsonLinesSettings settings, JsonNames names)
        : this(settings, names, order: null)
    {
    }

    private JsonLineParser(JsonLinesSettings settings, JsonNames names, List<string>? order)
    {
        _settings = settings;
        _names = names;
        _separator = Encoding.UTF8.GetBytes(settings.PathSeparator);
        _leaves = new Leaf[names.Columns.Count];
        _present = new int[names.Columns.Count];
        _named = new int[names.Count];
        _order = order;
    }

    /// <summary>A value found at a path: where its UTF-8 text is (in the line, or unescaped) and what it holds.</summary>
    private readonly record struct Leaf(FieldKind Kind, bool InUnescaped, int Start, int Length);

    /// <summary>The path of the first nested object or array of the line, when there is one (only said while the first object is read).</summary>
    public string? FirstNested { get; private set; }

    /// <summary>The columns: leaves 0 to <c>ColumnCount - 1</c>.</summary>
    public int ColumnCount => _leaves.Length;

    /// <summary>Leaves of the line at paths the first object did not name, at positions from <see cref="ColumnCount"/> on.</summary>
    public int ExtraCount => _extras.Count;

    /// <summary>
    /// Reads <paramref name="raw"/>, the first object of the input: its leaf paths become the columns, and every path it
    /// names the <see cref="JsonNames"/> later lines are read with.
    /// </summary>
    /// <returns>The names; null and why when the line is no record.</returns>
    public static JsonNames? FirstObject(JsonLinesSettings settings, ReadOnlySpan<byte> raw, out string? firstNested, out string? problem)
    {
        var parser = new JsonLineParser(settings, JsonNames.None, order: []);
        firstNested = null;
        if (!parser.Parse(raw, refuseNested: false, out problem))
        {
            return null;
        }

        firstNested = parser.FirstNested;
        return new JsonNames([.. parser._extras.Select(extra => extra.Path)], parser._order!);
    }

    /// <summary>Parses <paramref name="raw"/>; false and why when the line is no record.</summary>
    /// <param name="raw">The line, without its line break.</param>
    /// <param name="refuseNested">Whether a nested object or array makes the line no record.</param>
    /// <param name="problem">Why the line is no record.</param>
    public bool Parse(ReadOnlySpan<byte> raw, bool refuseNested, out string? problem)
    {
        Reset(refuseNested);
        try
        {
            var reader = new Utf8JsonReader(raw, new JsonReaderOptions { MaxDepth = MaxDepth });
            reader.Read();
            if (reader.TokenType != JsonTokenType.StartObject)
            {
                problem = $"not a JSON object: the line holds {Describe(reader.TokenType)}";
                return false;
            }

            if (!ReadObject(ref reader, -1))
            {
                problem = _problem;
                return false;
            }

            // Anything after the object but white space is an error the reader throws for.
            while (reader.Read())
            {
            }

            problem = null;
            return true;
        }
        catch (JsonException exception)
        {
            problem = $"not valid JSON at byte {(exception.BytePositionInLine ?? 0) + 1} of the line: {Reason(exception)}";
            return false;
        }
    }

    /// <summary>The field's UTF-8 text in the line last parsed, <paramref name="raw"/>; empty when it has none.</summary>
    public ReadOnlySpan<byte> Value(int field, ReadOnlySpan<byte> raw)
    {
        Leaf leaf;
        if (field < _leaves.Length)
        {
            if (_present[field] != _stamp)
            {
                return default;
            }

            leaf = _leaves[field];
        }
        else
        {
            leaf = _extras[field - _leaves.Length].Leaf;
        }

        return leaf.InUnescaped ? _unescaped.AsSpan(leaf.Start, leaf.Length) : raw.Slice(leaf.Start, leaf.Length);
    }

    public FieldKind KindOf(int field) => field < _leaves.Length
        ? _present[field] == _stamp ? _leaves[field].Kind : FieldKind.Text
        : _extras[field - _leaves.Length].Leaf.Kind;

    public string ExtraName(int field) => _extras[field - _leaves.Length].Path;

    private void Reset(bool refuseNested)
    {
        if (_stamp == int.MaxValue)
        {
            Array.Clear(_present);
            Array.Clear(_named);
            _stamp = 0;
        }

        _stamp++;
        _extras.Clear();
        if (_namedOthers.Count > 0)
        {
            _namedOthers.Clear();
        }

        _refuseNested = refuseNested;
        _leafCount = 0;
        _unescapedUsed = 0;
        _hint = _names.Start;
        _problem = null;
        FirstNested = null;
    }

    /// <summary>Reads the members of the object the reader stands on; the path of the object is <c>_path[..prefixLength]</c> (-1 for the line's own object).</summary>
    private bool ReadObject(ref Utf8JsonReader reader, int prefixLength)
    {
        while (reader.Read() && reader.TokenType != JsonTokenType.EndObject)
        {
            var pathLength = prefixLength < 0 && !reader.ValueIsEscaped ? -1 : AppendName(ref reader, prefixLength);
            var path = pathLength < 0 ? reader.ValueSpan : _path.AsSpan(0, pathLength);
            var known = _names.Find(path, _hint);
            string? other = null;
            if (known >= 0)
            {
                _hint = _names.Following(known);
                if (_named[known] == _stamp)
                {
                    return Refuse($"property '{_names[known]}' is named twice in one object");
                }

                _named[known] = _stamp;
            }
            else
            {
                other = _strings.Of(path);
                if (!_namedOthers.Add(other))
                {
                    return Refuse($"property '{other}' is named twice in one object");
                }

                _order?.Add(other);
            }

            reader.Read();
            var start = (int)reader.TokenStartIndex;
            switch (reader.TokenType)
            {
                case JsonTokenType.StartObject or JsonTokenType.StartArray when _refuseNested:
                    return Refuse($"property '{other ?? _names[known]}' holds {Describe(reader.TokenType)}, and Loader:Json:Nested is Refuse: Table Storage entities are flat (set it to Flatten to write its members as properties of their own)");
                case JsonTokenType.StartObject:
                    if (_order is not null)
                    {
                        FirstNested ??= other;
                    }

                    if (pathLength < 0)
                    {
                        pathLength = CopyPath(path);
                    }

                    var before = _leafCount;
                    if (!ReadObject(ref reader, pathLength))
                    {
                        return false;
                    }

                    if (_leafCount == before)
                    {
                        Add(known, other, new Leaf(_settings.KeepsJson ? FieldKind.Json : FieldKind.Text, false, start, (int)reader.BytesConsumed - start));
                    }

                    break;
                case JsonTokenType.StartArray:
                    if (_order is not null)
                    {
                        FirstNested ??= other;
                    }

                    reader.Skip();
                    Add(known, other, new Leaf(_settings.KeepsJson ? FieldKind.Json : FieldKind.Text, false, start, (int)reader.BytesConsumed - start));
                    break;
                case JsonTokenType.String when reader.ValueIsEscaped:
                    Add(known, other, Unescape(ref reader));
                    break;
                case JsonTokenType.String:
                    Add(known, other, new Leaf(FieldKind.Text, false, start + 1, reader.ValueSpan.Length));
                    break;
                case JsonTokenType.Number:
                    Add(known, other, new Leaf(FieldKind.Number, false, start, reader.ValueSpan.Length));
                    break;
                case JsonTokenType.True or JsonTokenType.False:
                    Add(known, other, new Leaf(FieldKind.Boolean, false, start, reader.ValueSpan.Length));
                    break;
                default:
                    break; // null: no value, as an empty CSV cell
            }
        }

        return true;
    }

    private bool Refuse(string problem)
    {
        _problem = problem;
        return false;
    }

    /// <summary>A leaf at a column's path, or beyond the columns.</summary>
    private void Add(int known, string? other, Leaf leaf)
    {
        _leafCount++;
        if (known >= 0 && known < _leaves.Length)
        {
            _leaves[known] = leaf;
            _present[known] = _stamp;
        }
        else
        {
            _extras.Add((other ?? _names[known], leaf));
        }
    }

    /// <summary>Writes the property name the reader stands on, unescaped, after the path <c>_path[..prefixLength]</c> and the separator; returns the new path's length.</summary>
    private int AppendName(ref Utf8JsonReader reader, int prefixLength)
    {
        var at = prefixLength < 0 ? 0 : prefixLength + _separator.Length;
        EnsurePath(at + reader.ValueSpan.Length); // unescaped text is never longer than the escaped
        if (prefixLength >= 0)
        {
            _separator.CopyTo(_path.AsSpan(prefixLength));
        }

        return at + (reader.ValueIsEscaped ? reader.CopyString(_path.AsSpan(at)) : CopyTo(reader.ValueSpan, at));
    }

    private int CopyPath(ReadOnlySpan<byte> path)
    {
        EnsurePath(path.Length);
        return CopyTo(path, 0);
    }

    private int CopyTo(ReadOnlySpan<byte> bytes, int at)
    {
        bytes.CopyTo(_path.AsSpan(at));
        return bytes.Length;
    }

    private void EnsurePath(int length)
    {
        if (_path.Length < length)
        {
            Array.Resize(ref _path, Math.Max(_path.Length * 2, length));
        }
    }

    private Leaf Unescape(ref Utf8JsonReader reader)
    {
        // Unescaped text is never longer than the escaped.
        if (_unescaped.Length - _unescapedUsed < reader.ValueSpan.Length)
        {
            Array.Resize(ref _unescaped, Math.Max(_unescaped.Length * 2, _unescapedUsed + reader.ValueSpan.Length));
        }

        var length = reader.CopyString(_unescaped.AsSpan(_unescapedUsed));
        var leaf = new Leaf(FieldKind.Text, true, _unescapedUsed, length);
        _unescapedUsed += length;
        return leaf;
    }

    private static string Describe(JsonTokenType token) => token switch
    {
        JsonTokenType.StartArray => "an array",
        JsonTokenType.StartObject => "an object",
        JsonTokenType.String => "a string",
        JsonTokenType.Number => "a number",
        JsonTokenType.True or JsonTokenType.False => "a boolean",
        JsonTokenType.Null => "null",
        _ => "no value",
    };

    /// <summary>The reader's reason without the position it appends (said in the loader's own words).</summary>
    private static string Reason(JsonException exception)
    {
        var message = exception.Message;
        var position = message.IndexOf(" LineNumber:", StringComparison.Ordinal);
        return (position >= 0 ? message[..position] : message).TrimEnd('.', ' ');
    }
}
