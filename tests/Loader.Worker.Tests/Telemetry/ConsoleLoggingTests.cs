using Loader.Worker.Configuration;
using Loader.Worker.Telemetry;
using Microsoft.Extensions.Configuration;

namespace Loader.Worker.Tests.Telemetry;

public sealed class ConsoleLoggingTests
{
    private static IConfiguration Settings(string? format) =>
        new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?> { [ConsoleLogging.FormatKey] = format }).Build();

    [Theory]
    [InlineData(null, true, nameof(LogFormat.Text))]
    [InlineData(null, false, nameof(LogFormat.Json))]
    [InlineData("Auto", false, nameof(LogFormat.Json))]
    [InlineData("json", true, nameof(LogFormat.Json))]
    [InlineData("Text", false, nameof(LogFormat.Text))]
    [InlineData("Yaml", false, nameof(LogFormat.Json))] // not a format: Auto here, and the options validation names the key
    public void Auto_writes_JSON_when_the_output_is_not_a_terminal_and_an_explicit_format_wins(string? setting, bool terminal, string expectedName) =>
        Assert.Equal(Enum.Parse<LogFormat>(expectedName), ConsoleLogging.Resolve(Settings(setting), terminal));
}
