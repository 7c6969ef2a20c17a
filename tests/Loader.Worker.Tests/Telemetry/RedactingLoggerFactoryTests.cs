using Loader.Worker.Security;
using Loader.Worker.Telemetry;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Spectre.Console.Testing;

namespace Loader.Worker.Tests.Telemetry;

public sealed partial class RedactingLoggerFactoryTests
{
    private const string Key = "a2V5LXF1b3RlZA==";
    private const string Url = "https://acct.blob.core.windows.net/c/b.csv?sv=2024&sig=c2ln";

    /// <summary>The loggers a host's code gets, with the providers given (a capture, the terminal) behind the redaction.</summary>
    private static ServiceProvider Services(params ILoggerProvider[] providers)
    {
        var services = new ServiceCollection();
        services.AddLogging(logging =>
        {
            foreach (var provider in providers)
            {
                logging.AddProvider(provider);
            }

            logging.SetMinimumLevel(LogLevel.Information);
        });
        services.AddSingleton(new Redaction([Key]));
        RedactingLoggerFactory.Register(services);
        return services.BuildServiceProvider();
    }

    [Fact]
    public void A_providers_message_values_and_exception_are_redacted()
    {
        var capture = new CapturingLoggerProvider();
        using var services = Services(capture);
        var logger = services.GetRequiredService<ILogger<RedactingLoggerFactoryTests>>();
        var failure = new InvalidOperationException($"403 for {Url}", new FormatException($"key {Key}"));

        LogReadFailed(logger, new Uri(Url), Key.Length, $"key {Key}", failure);

        var log = Assert.Single(capture.Logs);
        Assert.Equal("Reading https://acct.blob.core.windows.net/c/b.csv?sv=(removed)&sig=(removed) failed (16 characters): key (removed)", log.Message);
        Assert.Equal("https://acct.blob.core.windows.net/c/b.csv?sv=(removed)&sig=(removed)", log.Values.Single(value => value.Key == "Input").Value);
        Assert.Equal("key (removed)", log.Values.Single(value => value.Key == "Reason").Value);
        Assert.Equal(16, log.Values.Single(value => value.Key == "Length").Value); // a number stays a number
        Assert.Equal("Reading {Input} failed ({Length} characters): {Reason}", log.Values.Single(value => value.Key == "{OriginalFormat}").Value);
        Assert.Equal("403 for https://acct.blob.core.windows.net/c/b.csv?sv=(removed)&sig=(removed)", log.Exception!.Message);
        Assert.Contains("System.FormatException: key (removed)", log.Exception.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain(Key, log.Exception.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain("sig=c2ln", log.Exception.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void An_event_no_provider_takes_is_never_formatted()
    {
        var capture = new CapturingLoggerProvider();
        using var services = Services(capture);
        var logger = services.GetRequiredService<ILogger<RedactingLoggerFactoryTests>>();
        var formatted = 0;

        logger.Log(LogLevel.Debug, default, Key, null, (state, _) => $"{++formatted} {state}");
        logger.Log(LogLevel.Warning, default, Key, null, (state, _) => $"{++formatted} {state}");

        Assert.Equal(1, formatted);
        Assert.Equal("1 (removed)", Assert.Single(capture.Logs).Message);
    }

    [Fact]
    public void The_terminal_names_the_exceptions_own_type_and_shows_its_message_redacted()
    {
        var console = new TestConsole().Width(400);
        using var services = Services(new TerminalLoggerProvider(console, TimeProvider.System));

        LogLoadFailed(services.GetRequiredService<ILogger<RedactingLoggerFactoryTests>>(), Url, new InvalidOperationException($"refused {Key}"));

        Assert.Contains(
            "Load failed at https://acct.blob.core.windows.net/c/b.csv?sv=(removed)&sig=(removed) (InvalidOperationException: refused (removed))",
            console.Output,
            StringComparison.Ordinal);
    }

    [LoggerMessage(Level = LogLevel.Error, Message = "Load failed at {Url}")]
    private static partial void LogLoadFailed(ILogger logger, string url, Exception exception);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Reading {Input} failed ({Length} characters): {Reason}")]
    private static partial void LogReadFailed(ILogger logger, Uri input, int length, string reason, Exception exception);
}
