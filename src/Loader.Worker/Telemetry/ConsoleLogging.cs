using Loader.Worker.Configuration;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Console;

namespace Loader.Worker.Telemetry;

/// <summary>The console log in the format <c>Loader:LogFormat</c> asks for.</summary>
internal static class ConsoleLogging
{
    public const string FormatKey = "Loader:LogFormat";

    /// <summary>
    /// The format in effect. Read straight from configuration because logging is set up before the options are
    /// bound; a value that does not parse falls back to <see cref="LogFormat.Auto"/> here and is reported, naming
    /// the key, when the options are bound.
    /// </summary>
    public static LogFormat Resolve(IConfiguration configuration, bool outputIsTerminal)
    {
        var format = Enum.TryParse<LogFormat>(configuration[FormatKey], ignoreCase: true, out var parsed) ? parsed : LogFormat.Auto;
        return format == LogFormat.Auto ? (outputIsTerminal ? LogFormat.Text : LogFormat.Json) : format;
    }

    /// <summary>
    /// Whether a live progress bar is drawn: standard output is a terminal, the log is text, and
    /// <c>Loader:ProgressBar</c> is not <c>false</c> (a value that does not parse is reported when the options are bound).
    /// </summary>
    public static bool WantsProgressBar(IConfiguration configuration, LogFormat format, bool outputIsTerminal) =>
        outputIsTerminal && format == LogFormat.Text && (!bool.TryParse(configuration["Loader:ProgressBar"], out var wanted) || wanted);

    public static ILoggingBuilder AddLoaderConsole(this ILoggingBuilder logging, LogFormat format)
    {
        logging.ClearProviders();
        if (format == LogFormat.Json)
        {
            logging.AddJsonConsole(json =>
            {
                json.UseUtcTimestamp = true;
                json.TimestampFormat = "yyyy-MM-ddTHH:mm:ss.fffZ";
                json.JsonWriterOptions = new System.Text.Json.JsonWriterOptions { Indented = false };
            });
        }
        else
        {
            logging.AddSimpleConsole(console =>
            {
                console.SingleLine = true;
                console.TimestampFormat = "HH:mm:ss ";
                console.ColorBehavior = LoggerColorBehavior.Default;
            });
        }

        return logging;
    }
}
