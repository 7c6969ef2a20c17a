using System.Globalization;
using CsvHelper;
using Loader.Worker.Csv;
using Loader.Worker.Outputs;

namespace Loader.Worker.Rejects;

/// <summary>
/// The input lines a load's rejects file lists (<see cref="RejectSink"/> writes it, in the input's format and delimiter): its
/// <see cref="RejectColumns.InputLine"/> column (in JSON Lines, member), the row's line in the load's own input, found by name whatever columns
/// stand beside it; in a file of an earlier version, its <c>line</c> column.
/// </summary>
internal static class RejectedLinesFile
{
    private const string EarlierLineColumn = "line";

    /// <summary>The lines <paramref name="file"/> lists; null when there is no such file.</summary>
    /// <param name="file">The rejects file.</param>
    /// <param name="separator">Its field separator: the input's.</param>
    /// <param name="cancellationToken">Cancels reading it.</param>
    /// <param name="jsonLines">Whether the load wrote its rejects as JSON Lines (<see cref="RejectLayouts.IsJsonLines"/>, <see cref="JsonRejectRows"/>).</param>
    /// <exception cref="InvalidDataException">It has no line column, or a line that is no number.</exception>
    public static async Task<HashSet<long>?> ReadAsync(OutputFile file, char separator, CancellationToken cancellationToken, bool jsonLines = false)
    {
        var content = await file.ReadAsync(cancellationToken).ConfigureAwait(false);
        if (content is null)
        {
            return null;
        }

        if (jsonLines)
        {
            return JsonLines(content.ToString(), file.Display);
        }

        using var reader = CsvReader.Create(content.ToStream(), new CsvReaderOptions { Separator = separator, HasHeader = true, DetectSeparatorHint = false }, leaveOpen: false);
        var header = reader.Headers;
        var column = RejectColumns.PositionIn(header, RejectColumns.InputLine) is var position and >= 0 ? position : RejectColumns.PositionIn(header, EarlierLineColumn);
        if (column < 0)
        {
            throw new InvalidDataException($"'{file.Display}' has no '{RejectColumns.InputLine}' column: it is not a rejects file of the loader.");
        }

        var lines = new HashSet<long>();
        while (reader.Read())
        {
            var text = reader.GetString(column);
            lines.Add(long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var line)
                ? line
                : throw new InvalidDataException($"'{file.Display}' lists '{text}' as a line, which is no line number."));
        }

        return lines;
    }

    private static HashSet<long> JsonLines(string content, string display)
    {
        var lines = new HashSet<long>();
        foreach (var text in content.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            lines.Add(JsonRejectRows.InputLineOf(text)
                ?? throw new InvalidDataException($"'{display}' holds a line without a '{RejectColumns.InputLine}' number: it is not a JSON Lines rejects file of the loader."));
        }

        return lines;
    }
}
