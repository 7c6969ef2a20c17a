using System.Text;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>Builds CSV text for tests: fields quoted only when they need it, so the tests also exercise unquoted input.</summary>
public sealed class CsvText(params string[] header)
{
    private readonly StringBuilder _text = new StringBuilder().Append(Line(header, ',')).Append('\n');

    public int Rows { get; private set; }

    public CsvText Row(params object?[] fields)
    {
        _text.Append(Line(fields.Select(f => f?.ToString() ?? "").ToArray(), ',')).Append('\n');
        Rows++;
        return this;
    }

    public override string ToString() => _text.ToString();

    public static string Line(IReadOnlyList<string> fields, char separator) =>
        string.Join(separator, fields.Select(field => Quote(field, separator)));

    private static string Quote(string field, char separator) =>
        field.Contains(separator) || field.Contains('"') || field.Contains('\n') || field.Contains('\r')
            ? "\"" + field.Replace("\"", "\"\"", StringComparison.Ordinal) + "\""
            : field;
}
