using Microsoft.Extensions.Logging;
using Spectre.Console;

namespace Loader.Worker.Telemetry;

/// <summary>
/// The console log while a live progress bar is on screen: each line goes through the same Spectre.Console console as
/// the bar, which writes it above the bar and draws the bar again, instead of the bar being torn by lines written past it.
/// One line per event, as the text log: time, level, category, message (and an exception's message).
/// </summary>
internal sealed class TerminalLoggerProvider(IAnsiConsole console, TimeProvider timeProvider) : ILoggerProvider
{
    public ILogger CreateLogger(string categoryName) => new TerminalLogger(categoryName, console, timeProvider);

    public void Dispose()
    {
    }

    private sealed class TerminalLogger(string category, IAnsiConsole console, TimeProvider timeProvider) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => logLevel != LogLevel.None;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            if (!IsEnabled(logLevel))
            {
                return;
            }

            var (label, color) = logLevel switch
            {
                LogLevel.Trace => ("trce", "grey"),
                LogLevel.Debug => ("dbug", "grey"),
                LogLevel.Information => ("info", "green"),
                LogLevel.Warning => ("warn", "yellow"),
                LogLevel.Error => ("fail", "red"),
                _ => ("crit", "red"),
            };
            var type = exception is RedactedException redacted ? redacted.TypeName : exception?.GetType().Name;
            var message = formatter(state, exception) + (exception is null ? "" : $" ({type}: {exception.Message})");
            var time = timeProvider.GetLocalNow().ToString("HH:mm:ss", System.Globalization.CultureInfo.InvariantCulture);
            console.MarkupLine($"{time} [{color}]{label}[/]: {Markup.Escape(category)}: {Markup.Escape(message)}");
        }
    }
}
