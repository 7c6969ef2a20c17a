using System.Text.Json;
using Loader.Worker.Configuration;

namespace Loader.Worker.Hosting;

/// <summary>
/// Where the human summary goes: standard output, or a writer a test captures. Beside JSON logs it is one JSON
/// line too, shaped like a log event, so a log collector keeps it whole instead of as a dozen stray lines.
/// </summary>
internal sealed class SummaryOutput(TextWriter output, LogFormat format = LogFormat.Text)
{
    public SummaryOutput()
        : this(Console.Out)
    {
    }

    public TextWriter Out { get; } = output;

    public async Task WriteAsync(string summary, TimeProvider timeProvider)
    {
        if (format == LogFormat.Json)
        {
            var line = JsonSerializer.Serialize(new Dictionary<string, string>
            {
                ["Timestamp"] = timeProvider.GetUtcNow().ToString("yyyy-MM-ddTHH:mm:ss.fffZ", System.Globalization.CultureInfo.InvariantCulture),
                ["LogLevel"] = "Information",
                ["Category"] = "Loader.Worker.Summary",
                ["Message"] = summary,
            });
            await Out.WriteLineAsync(line).ConfigureAwait(false);
        }
        else
        {
            await Out.WriteLineAsync(summary).ConfigureAwait(false);
        }

        await Out.FlushAsync().ConfigureAwait(false);
    }
}
