using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>Keeps every log message of an in-process load, for assertions on what was (and was not) logged.</summary>
public sealed class CapturingLoggerProvider : ILoggerProvider
{
    private readonly ConcurrentQueue<CapturedLog> _logs = new();

    public IReadOnlyList<CapturedLog> Logs => [.. _logs];

    public string AllText => string.Join(Environment.NewLine, _logs.Select(l => $"{l.Level} {l.Category}: {l.Message} {l.Exception}"));

    public ILogger CreateLogger(string categoryName) => new Logger(categoryName, _logs);

    public void Dispose()
    {
    }

    private sealed class Logger(string category, ConcurrentQueue<CapturedLog> logs) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
            logs.Enqueue(new CapturedLog(logLevel, category, formatter(state, exception), exception)
            {
                Values = state is IEnumerable<KeyValuePair<string, object?>> values ? [.. values] : [],
            });
    }
}

public sealed record CapturedLog(LogLevel Level, string Category, string Message, Exception? Exception)
{
    /// <summary>The event's values as the provider was given them (what the JSON console writes as <c>State</c>).</summary>
    public IReadOnlyList<KeyValuePair<string, object?>> Values { get; init; } = [];
}
