using System.Text;

namespace Loader.Worker.JsonLines;

/// <summary>
/// Strings for paths the first object did not name, made once while there are few: input whose lines keep naming new
/// properties (an id as a key) stops adding at <see cref="Capacity"/> and makes a string per use from then on, so memory
/// stays bounded. One per parsing thread.
/// </summary>
internal sealed class JsonPathStrings
{
    internal const int Capacity = 4096;

    // Longer paths are rare enough not to keep.
    private const int MaxKeptChars = 256;

    private readonly Dictionary<string, string> _kept = new(StringComparer.Ordinal);
    private readonly Dictionary<string, string>.AlternateLookup<ReadOnlySpan<char>> _lookup;

    public JsonPathStrings() => _lookup = _kept.GetAlternateLookup<ReadOnlySpan<char>>();

    /// <summary>How many paths are kept.</summary>
    public int Count => _kept.Count;

    /// <summary>The path <paramref name="utf8"/> as a string.</summary>
    public string Of(ReadOnlySpan<byte> utf8)
    {
        if (utf8.Length > MaxKeptChars)
        {
            return Encoding.UTF8.GetString(utf8);
        }

        Span<char> chars = stackalloc char[MaxKeptChars];
        var length = Encoding.UTF8.GetChars(utf8, chars);
        if (_lookup.TryGetValue(chars[..length], out var kept))
        {
            return kept;
        }

        var made = new string(chars[..length]);
        if (_kept.Count < Capacity)
        {
            _kept.Add(made, made);
        }

        return made;
    }
}
