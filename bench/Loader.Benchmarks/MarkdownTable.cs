namespace Loader.Benchmarks;

/// <summary>A markdown table padded to line up in a terminal too: first column left-aligned, the numbers right-aligned.</summary>
internal sealed class MarkdownTable(params string[] headers)
{
    private readonly List<string[]> _rows = [];

    public void Add(params string[] cells) => _rows.Add(cells);

    public void Write(TextWriter output)
    {
        var widths = headers.Select((header, i) => _rows.Select(row => row[i].Length).Append(Math.Max(3, header.Length)).Max()).ToArray();
        output.WriteLine(Line(headers, widths));
        output.WriteLine("|" + string.Join("|", widths.Select((width, i) => " " + (i == 0 ? new string('-', width) : new string('-', width - 1) + ":") + " ")) + "|");
        foreach (var row in _rows)
        {
            output.WriteLine(Line(row, widths));
        }

        output.WriteLine();
    }

    private static string Line(string[] cells, int[] widths) =>
        "|" + string.Join("|", cells.Select((cell, i) => " " + (i == 0 ? cell.PadRight(widths[i]) : cell.PadLeft(widths[i])) + " ")) + "|";
}
