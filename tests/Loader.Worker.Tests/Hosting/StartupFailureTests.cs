using Loader.Worker.Configuration;
using Loader.Worker.Hosting;
using Loader.Worker.Outcomes;
using Loader.Worker.Security;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Tests.Hosting;

/// <summary>What the process prints on standard error when it cannot start: never a secret, even one given to the wrong setting.</summary>
public sealed class StartupFailureTests
{
    private const string Key = "c2VjcmV0LWtleS1vZi10aGUtYmxvYnM=";

    private readonly Redaction _redaction = new([Key]);

    [Fact]
    public async Task A_value_the_binder_could_not_convert_is_quoted_without_its_secrets()
    {
        var error = new StringWriter();
        var failure = new InvalidOperationException($"Failed to convert configuration value 'AccountName=a;AccountKey={Key}' at 'Loader:BatchSize' to type 'System.Int32'.");

        var exitCode = await StartupFailure.ReportAsync(failure, error, _redaction);

        Assert.Equal(ExitCodes.InvalidConfiguration, exitCode);
        Assert.Contains("  - Failed to convert configuration value 'AccountName=a;AccountKey=(removed)' at 'Loader:BatchSize'", error.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain(Key, error.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_validation_failure_and_a_failure_to_start_quote_no_secret()
    {
        var error = new StringWriter();

        await StartupFailure.ReportAsync(new OptionsValidationException("Loader", typeof(LoaderOptions), [$"Loader:Csv:Delimiter '{Key}' is not one character"]), error, _redaction);
        var exitCode = await StartupFailure.ReportAsync(new InvalidOperationException("outer", new FormatException("https://u:pw@host/?sig=abc")), error, _redaction);

        Assert.Equal(ExitCodes.InternalError, exitCode);
        Assert.Equal(
            [StartupFailure.InvalidSettingsHeading, "  - Loader:Csv:Delimiter '(removed)' is not one character", StartupFailure.HelpHint,
             "The loader could not start; nothing was loaded: https://(removed)@host/?sig=(removed)"],
            error.ToString().Split(Environment.NewLine, StringSplitOptions.RemoveEmptyEntries));
    }
}
