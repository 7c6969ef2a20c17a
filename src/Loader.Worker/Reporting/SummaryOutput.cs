using System.Text.Json;
using Loader.Worker.Configuration;
using Loader.Worker.Security;

namespace Loader.Worker.Reporting;

/// <summary>
/// Where the human summary goes: standard output, or a writer a test captures. Beside JSON logs it is one JSON
/// line too, shaped like a log event, so a log collector keeps it whole instead of as a dozen stray lines. Everything
/// written here goes through the host's <see cref="Redaction"/> first.
/// </summary>
internal sealed class SummaryOutput(TextWriter output, Redaction redaction, LogFormat format = LogFormat.Text)
{
    public async Task WriteAsync(string summary, TimeProvider timeProvider)
    {
        var shown = redaction.Redact(summary);
        if (format == LogFormat.Json)
        {
            var line = JsonSerializer.Serialize(new Dictionary<string, string>
            {
                ["Timestamp"] = timeProvider.GetUtcNow().ToString("yyyy-MM-ddTHH:mm:ss.fffZ", System.Globalization.CultureInfo.InvariantCulture),
                ["LogLevel"] = "Information",
                ["Category"] = "Loader.Worker.Summary",
                ["Message"] = shown,
            });
            await output.WriteLineAsync(line).ConfigureAwait(false);
        }
        else
        {
            await output.WriteLineAsync(shown).ConfigureAwait(false);
        }

        await output.FlushAsync().ConfigureAwait(false);
    }

    /// <summary>A value as JSON on its own (the estimate's plan, a report with nowhere else to go), its strings redacted.</summary>
    public async Task WriteJsonAsync<T>(T value, JsonSerializerOptions options)
    {
        await output.WriteLineAsync(RedactedJson.ToText(value, options, redaction)).ConfigureAwait(false);
        await output.FlushAsync().ConfigureAwait(false);
    }
}
