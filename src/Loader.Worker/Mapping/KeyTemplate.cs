using System.Globalization;
using System.Text;

namespace Loader.Worker.Mapping;

/// <summary>
/// A key template such as <c>{year}-{month}-{day}-{carrier}-{flight}</c>: literal text and <c>{column}</c>
/// placeholders; <c>{{</c> and <c>}}</c> stand for literal braces.
/// </summary>
internal sealed class KeyTemplate
{
    private KeyTemplate(string text, IReadOnlyList<Segment> segments)
    {
        Text = text;
        Segments = segments;
    }

    public string Text { get; }

    public IReadOnlyList<Segment> Segments { get; }

    /// <summary>The column names the template refers to, in order of first use.</summary>
    public IEnumerable<string> Columns => Segments.Where(s => s.IsColumn).Select(s => s.Value).Distinct(StringComparer.Ordinal);

    /// <summary>Parses a template; the exception names the position of the problem.</summary>
    public static KeyTemplate Parse(string text)
    {
        if (string.IsNullOrWhiteSpace(text))
        {
            throw new FormatException("is empty: give a template such as {column} or {a}-{b}.");
        }

        var segments = new List<Segment>();
        var literal = new StringBuilder();
        for (var i = 0; i < text.Length; i++)
        {
            var c = text[i];
            if (c == '{' && i + 1 < text.Length && text[i + 1] == '{')
            {
                literal.Append('{');
                i++;
            }
            else if (c == '}' && i + 1 < text.Length && text[i + 1] == '}')
            {
                literal.Append('}');
                i++;
            }
            else if (c == '{')
            {
                var close = text.IndexOf('}', i + 1);
                if (close < 0)
                {
                    throw new FormatException(string.Create(CultureInfo.InvariantCulture, $"has a '{{' at position {i + 1} that is never closed."));
                }

                var column = text[(i + 1)..close].Trim();
                if (column.Length == 0 || column.Contains('{', StringComparison.Ordinal))
                {
                    throw new FormatException(string.Create(CultureInfo.InvariantCulture, $"has an empty or nested placeholder at position {i + 1}."));
                }

                if (literal.Length > 0)
                {
                    segments.Add(Segment.Literal(literal.ToString()));
                    literal.Clear();
                }

                segments.Add(Segment.Column(column));
                i = close;
            }
            else if (c == '}')
            {
                throw new FormatException(string.Create(CultureInfo.InvariantCulture, $"has a '}}' at position {i + 1} without an opening '{{' (write '}}}}' for a literal brace)."));
            }
            else
            {
                literal.Append(c);
            }
        }

        if (literal.Length > 0)
        {
            segments.Add(Segment.Literal(literal.ToString()));
        }

        if (!segments.Any(s => s.IsColumn))
        {
            throw new FormatException("names no column: every row would get the same key. Use {column} placeholders.");
        }

        return new KeyTemplate(text, segments);
    }

    /// <summary>
    /// The templates of a hierarchical key's levels, one per path: <paramref name="text"/> cut at each comma outside a
    /// placeholder (<c>{origin},{dest}</c>; a comma inside braces belongs to a column name), spaces around them trimmed.
    /// </summary>
    public static IReadOnlyList<string> SplitLevels(string text)
    {
        var levels = new List<string>();
        var start = 0;
        for (var i = 0; i < text.Length; i++)
        {
            var c = text[i];
            if (c is '{' or '}' && i + 1 < text.Length && text[i + 1] == c)
            {
                i++;
            }
            else if (c == '{')
            {
                var close = text.IndexOf('}', i + 1);
                i = close < 0 ? text.Length : close;
            }
            else if (c == ',')
            {
                levels.Add(text[start..i].Trim());
                start = i + 1;
            }
        }

        levels.Add(text[start..].Trim());
        return levels;
    }

    public override string ToString() => Text;

    /// <summary>A piece of a template: literal text or a column reference.</summary>
    public readonly record struct Segment(bool IsColumn, string Value)
    {
        public static Segment Literal(string text) => new(false, text);

        public static Segment Column(string name) => new(true, name);
    }
}
