using Loader.Worker.Security;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Telemetry;

/// <summary>
/// The host's logger factory, with <see cref="Redaction"/> between every logger and every provider (the console, the
/// JSON console, the terminal, a test's capture): each event's formatted message, its values and its exception's text
/// reach a provider redacted, whoever logs it (the loader, the host, an SDK), so no log line can carry a secret.
/// </summary>
internal sealed class RedactingLoggerFactory(ILoggerFactory inner, Redaction redaction) : ILoggerFactory
{
    /// <summary>Puts the factory in place of the one logging registers; providers and filters stay as configured.</summary>
    public static void Register(IServiceCollection services) =>
        services.Replace(ServiceDescriptor.Singleton<ILoggerFactory>(provider => new RedactingLoggerFactory(
            new LoggerFactory(
                provider.GetServices<ILoggerProvider>(),
                provider.GetRequiredService<IOptionsMonitor<LoggerFilterOptions>>(),
                provider.GetService<IOptions<LoggerFactoryOptions>>(),
                provider.GetService<IExternalScopeProvider>()),
            provider.GetRequiredService<Redaction>())));

    public ILogger CreateLogger(string categoryName) => new RedactingLogger(inner.CreateLogger(categoryName), redaction);

    public void AddProvider(ILoggerProvider provider) => inner.AddProvider(provider);

    public void Dispose() => inner.Dispose();

    private sealed class RedactingLogger(ILogger inner, Redaction redaction) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => inner.BeginScope(RedactedLogState.Of(state, redaction.Redact(state.ToString() ?? ""), redaction));

        public bool IsEnabled(LogLevel logLevel) => inner.IsEnabled(logLevel);

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            if (!inner.IsEnabled(logLevel))
            {
                return; // nothing is formatted for an event no provider takes
            }

            var message = redaction.Redact(formatter(state, exception));
            inner.Log(
                logLevel,
                eventId,
                RedactedLogState.Of(state, message, redaction),
                exception is null ? null : new RedactedException(exception, redaction),
                static (redacted, _) => redacted.Message);
        }
    }
}
