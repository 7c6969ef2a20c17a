using System.Buffers;

namespace Loader.Worker.Backends;

/// <summary>Upper bounds of JSON sizes, to keep batches under the services' payload limits without serializing twice.</summary>
internal static class JsonSizes
{
    // Printable ASCII that JSON writes as itself; anything else may cost up to six bytes (\uXXXX).
    private static readonly SearchValues<char> s_plainJsonCharacters = SearchValues.Create(
        new string([.. Enumerable.Range(0x20, 0x5F).Select(c => (char)c).Where(c => c is not '"' and not '\\')]));

    /// <summary>Upper bound of a string's JSON size without its quotes: plain ASCII costs a byte, anything else at most six.</summary>
    public static long StringUpperBound(ReadOnlySpan<char> text)
    {
        var firstSpecial = text.IndexOfAnyExcept(s_plainJsonCharacters);
        return firstSpecial < 0 ? text.Length : firstSpecial + ((text.Length - firstSpecial) * 6L);
    }
}
