using System.Buffers;
using System.Globalization;
using System.Text;

namespace Loader.Worker.Inputs;

/// <summary>
/// Text from the input as messages, logs and summaries show it: control characters and line separators written as
/// escapes (<c>\n</c>, <c>\u001B</c>), so a header name or a cell cannot start a line of its own in a log or steer a
/// terminal.
/// </summary>
internal static class InputText
{
    private static readonly SearchValues<char> s_unprintable = SearchValues.Create(
        string.Concat(Enumerable.Range(0, 0x20).Concat(Enumerable.Range(0x7F, 0x21)).Select(c => (char)c)) + "\u2028\u2029");

    public static string Escape(string text)
    {
        var first = text.AsSpan().IndexOfAny(s_unprintable);
        if (first < 0)
        {
            return text;
        }

        var escaped = new StringBuilder(text.Length + 8).Append(text, 0, first);
        foreach (var c in text.AsSpan(first))
        {
            _ = c switch
            {
                '\n' => escaped.Append("\\n"),
                '\r' => escaped.Append("\\r"),
                '\t' => escaped.Append("\\t"),
                _ when s_unprintable.Contains(c) => escaped.Append(CultureInfo.InvariantCulture, $"\\u{(int)c:X4}"),
                _ => escaped.Append(c),
            };
        }

        return escaped.ToString();
    }
}
