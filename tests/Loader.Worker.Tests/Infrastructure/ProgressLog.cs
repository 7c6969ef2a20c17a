using System.Globalization;
using System.Text.Json;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>One progress line of the loader's JSON console log (<c>Loader:LogFormat=Json</c>): what it had read, written and left waiting when.</summary>
public sealed record ProgressLine(DateTimeOffset At, long RowsRead, long RowsWritten, long RowsPending)
{
    /// <summary>The progress lines in a captured output, oldest first; other lines are skipped.</summary>
    public static IReadOnlyList<ProgressLine> Parse(string output)
    {
        var lines = new List<ProgressLine>();
        foreach (var line in output.Split('\n'))
        {
            if (!line.Contains("\"RowsPending\"", StringComparison.Ordinal))
            {
                continue;
            }

            using var json = JsonDocument.Parse(line);
            var root = json.RootElement;
            var state = root.GetProperty("State");
            lines.Add(new ProgressLine(
                DateTimeOffset.Parse(root.GetProperty("Timestamp").GetString()!, CultureInfo.InvariantCulture),
                Number(state, "RowsRead"),
                Number(state, "RowsWritten"),
                Number(state, "RowsPending")));
        }

        return lines;
    }

    // The JSON console writes state values as numbers or as their text, depending on the value's type.
    private static long Number(JsonElement state, string name)
    {
        var value = state.GetProperty(name);
        return value.ValueKind == JsonValueKind.Number
            ? value.GetInt64()
            : long.Parse(value.GetString()!, NumberStyles.AllowThousands, CultureInfo.InvariantCulture);
    }
}
