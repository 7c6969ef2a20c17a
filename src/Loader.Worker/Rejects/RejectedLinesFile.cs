using System.Globalization;
using CsvHelper;
using Loader.Worker.Outputs;

namespace Loader.Worker.Rejects;

/// <summary>
/// The input lines a load's rejects file lists (<see cref="RejectSink"/> writes it): its <c>line</c> column, found by
/// name, so columns added beside it change nothing here. A line is the input's as the load numbered it (an input of
/// several files: through them all).
/// </summary>
internal static class RejectedLinesFile
{
    public const string LineColumn = "line";

    /// <summary>The lines <paramref name="file"/> lists; null when there is no such file.</summary>
    /// <exception cref="InvalidDataException">It has no <c>line</c> column, or a line that is no number.</exception>
    public static async Task<HashSet<long>?> ReadAsync(OutputFile file, CancellationToken cancellationToken)
    {
        var content = await file.ReadAsync(cancellationToken).ConfigureAwait(false);
        if (content is null)
        {
            return null;
        }

        using var reader = CsvReader.Create(content.ToStream(), new CsvReaderOptions { Separator = ',', HasHeader = true, DetectSeparatorHint = false }, leaveOpen: false);
        var column = reader.Headers.ToList().FindIndex(name => name.Trim().Equals(LineColumn, StringComparison.OrdinalIgnoreCase));
        if (column < 0)
        {
            throw new InvalidDataException($"'{file.Display}' has no '{LineColumn}' column: it is not a rejects file of the loader.");
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
}
