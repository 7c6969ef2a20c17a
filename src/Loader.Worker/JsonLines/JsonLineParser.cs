using System.Text.Json;
using Loader.Worker.Records;

namespace Loader.Worker.JsonLines;

/// <summary>
/// Parses one line as a JSON object with <see cref="Utf8JsonReader"/>: each leaf value at its path (nested names joined
/// with the path separator), strings unescaped, numbers and booleans as written, arrays (and empty objects) as their
/// JSON text, nulls left out. A line that is not one JSON object, or names a property twice, is not a record.
/// </summary>
internal sealed class JsonLineParser(JsonLinesSettings settings)
{
    private const int MaxDepth = 64;

    /// <summary>The leaves of the object <paramref name="raw"/> holds, or null and why it is no record.</summary>
    /// <param name="raw">The line, without its line break.</param>
    /// <param name="refuseNested">Whether a nested object or array makes the line no record.</param>
    /// <param name="unescaped">Strings that held escapes, unescaped; the leaves marked so point into it.</param>
    /// <param name="firstNested">The path of the first nested object or array, when there is one.</param>
    /// <param name="problem">Why the line is no record.</param>
    public List<JsonLine.Leaf>? Parse(ReadOnlySpan<byte> raw, bool refuseNested, out byte[] unescaped, out string? firstNested, out string? problem)
    {
        var state = new State(refuseNested);
        unescaped = [];
        firstNested = null;
        try
        {
            var reader = new Utf8JsonReader(raw, new JsonReaderOptions { MaxDepth = MaxDepth });
            reader.Read();
            if (reader.TokenType != JsonTokenType.StartObject)
            {
                problem = $"not a JSON object: the line holds {Describe(reader.TokenType)}";
                return null;
            }

            if (!ReadObject(ref reader, null, state))
            {
                problem = state.Problem;
                return null;
            }

            // Anything after the object but white space is an error the reader throws for.
            while (reader.Read())
            {
            }

            unescaped = state.Unescaped;
            firstNested = state.FirstNested;
            problem = null;
            return state.Leaves;
        }
        catch (JsonException exception)
        {
            problem = $"not valid JSON at byte {(exception.BytePositionInLine ?? 0) + 1} of the line: {Reason(exception)}";
            return null;
        }
    }

    private bool ReadObject(ref Utf8JsonReader reader, string? prefix, State state)
    {
        while (reader.Read() && reader.TokenType != JsonTokenType.EndObject)
        {
            var name = reader.GetString()!;
            var path = prefix is null ? name : prefix + settings.PathSeparator + name;
            if (!state.Seen.Add(path))
            {
                state.Problem = $"property '{path}' is named twice in one object";
                return false;
            }

            reader.Read();
            var start = (int)reader.TokenStartIndex;
            switch (reader.TokenType)
            {
                case JsonTokenType.StartObject or JsonTokenType.StartArray when state.RefuseNested:
                    state.Problem = $"property '{path}' holds {Describe(reader.TokenType)}, and Loader:Json:Nested is Refuse: Table Storage entities are flat (set it to Flatten to write its members as properties of their own)";
                    return false;
                case JsonTokenType.StartObject:
                    state.FirstNested ??= path;
                    var before = state.Leaves.Count;
                    if (!ReadObject(ref reader, path, state))
                    {
                        return false;
                    }

                    if (state.Leaves.Count == before)
                    {
                        state.Leaves.Add(new JsonLine.Leaf(path, settings.KeepsJson ? FieldKind.Json : FieldKind.Text, false, start, (int)reader.BytesConsumed - start));
                    }

                    break;
                case JsonTokenType.StartArray:
                    state.FirstNested ??= path;
                    reader.Skip();
                    state.Leaves.Add(new JsonLine.Leaf(path, settings.KeepsJson ? FieldKind.Json : FieldKind.Text, false, start, (int)reader.BytesConsumed - start));
                    break;
                case JsonTokenType.String when reader.ValueIsEscaped:
                    state.Leaves.Add(state.Unescape(path, ref reader));
                    break;
                case JsonTokenType.String:
                    state.Leaves.Add(new JsonLine.Leaf(path, FieldKind.Text, false, start + 1, reader.ValueSpan.Length));
                    break;
                case JsonTokenType.Number:
                    state.Leaves.Add(new JsonLine.Leaf(path, FieldKind.Number, false, start, reader.ValueSpan.Length));
                    break;
                case JsonTokenType.True or JsonTokenType.False:
                    state.Leaves.Add(new JsonLine.Leaf(path, FieldKind.Boolean, false, start, reader.ValueSpan.Length));
                    break;
                default:
                    break; // null: no value, as an empty CSV cell
            }
        }

        return true;
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

    private sealed class State(bool refuseNested)
    {
        public bool RefuseNested => refuseNested;

        public List<JsonLine.Leaf> Leaves { get; } = [];

        public HashSet<string> Seen { get; } = new(StringComparer.Ordinal);

        public byte[] Unescaped { get; private set; } = [];

        public string? Problem { get; set; }

        public string? FirstNested { get; set; }

        private int _used;

        public JsonLine.Leaf Unescape(string path, ref Utf8JsonReader reader)
        {
            // Unescaped text is never longer than the escaped.
            if (Unescaped.Length - _used < reader.ValueSpan.Length)
            {
                var grown = new byte[Math.Max(Unescaped.Length * 2, _used + reader.ValueSpan.Length)];
                Unescaped.AsSpan(0, _used).CopyTo(grown);
                Unescaped = grown;
            }

            var length = reader.CopyString(Unescaped.AsSpan(_used));
            var leaf = new JsonLine.Leaf(path, FieldKind.Text, true, _used, length);
            _used += length;
            return leaf;
        }
    }
}
