using Loader.Worker.Configuration;
using Loader.Worker.Telemetry;
using Microsoft.Extensions.Configuration;

namespace Loader.Worker.Tests.Telemetry;

public sealed class ConsoleLoggingTests
{
    private static IConfiguration Settings(string? format) =>
        new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?> { [ConsoleLogging.FormatKey] = format }).Build();

    [Theory]
    [InlineData(null, true, LogFormat.Text)]
    [InlineData(null, false, LogFormat.Json)]
    [InlineData("Auto", false, LogFormat.Json)]
    [InlineData("json", true, LogFormat.Json)]
    [InlineData("Text", false, LogFormat.Text)]
    [InlineData("Yaml", false, LogFormat.Json)] // not a format: Auto here, and the options validation names the key
    public void Auto_writes_JSON_when_the_output_is_not_a_terminal_and_an_explicit_format_wins(string? setting, bool terminal, LogFormat expected) =>
        Assert.Equal(expected, ConsoleLogging.Resolve(Settings(setting), terminal));
}
