using Loader.Worker.Hosting;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Configuration;

/// <summary>
/// Configuration the loader would otherwise ignore without a word stops it at start (exit 2), from every source, each
/// named with where it came from and the name meant; what it does read, in any case, still loads.
/// </summary>
public sealed class UnknownSettingsValidatorTests : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string[] DryRun(params string[] more) =>
        ["--input", _directory.WriteCsv("in.csv", "pk,rk,n\np,1,5\n"), "--table", "flights", "--partition-key", "{pk}", "--row-key", "{rk}", "--dry-run", .. more];

    [Fact]
    public async Task Every_key_switch_and_word_the_command_line_would_lose_is_listed_with_the_one_meant()
    {
        var run = await LoaderRunner.RunWithArgumentsAsync(
            DryRun("--Loader:WriteMdoe=Insert", "--Columns:n=Int32", "--inptu", "x", "extra", "-x=1", "--Loader:Csvv:Delimiter=;", "--Loader:Csv=;", "--Loader:Foo=1"),
            _cancellation);

        Assert.Equal(ExitCodes.InvalidConfiguration, run.ExitCode);
        Assert.Equal(
            [
                StartupFailure.InvalidSettingsHeading,
                "  - 'extra' on the command line is neither a switch nor the value of one.",
                "  - '-x' on the command line is not a switch.",
                "  - Loader:WriteMdoe (on the command line) is not a setting; did you mean Loader:WriteMode?",
                "  - Columns:n (on the command line) is neither a Loader: setting nor a host section (Logging:, OTEL_*, APPLICATIONINSIGHTS_CONNECTION_STRING); did you mean Loader:Columns:n?",
                "  - '--inptu' on the command line is not a switch; did you mean --input?",
                "  - Loader:Csvv:Delimiter (on the command line): Loader:Csvv is no section of settings; did you mean Loader:Csv?",
                "  - Loader:Csv (on the command line) is a section, not a setting: its settings are Loader:Csv:<name>.",
                "  - Loader:Foo (on the command line) is not a setting.",
                StartupFailure.HelpHint,
            ],
            run.Error.ReplaceLineEndings("\n").TrimEnd().Split('\n'));
    }

    [Fact]
    public async Task Keys_in_any_case_entries_of_Loader_Columns_and_the_host_sections_are_read_as_before()
    {
        var run = await LoaderRunner.RunWithArgumentsAsync(
            DryRun("--loader:batchsize=50", "--LOADER:CSV:DELIMITER=,", "--Loader:Columns:n=Int32", "--Logging:LogLevel:Default=Warning", "--OTEL_SERVICE_NAME=loader", "/Loader:MaxRejects=0"),
            _cancellation);

        Assert.True(run.ExitCode == ExitCodes.Success, run.Error);
        Assert.Equal(1, run.RequireReport().RowsWritten);
    }

    [Fact]
    public async Task A_settings_file_s_unknown_keys_are_named_with_the_file()
    {
        var file = _directory.File("load.json");
        await File.WriteAllTextAsync(file, """{ "Loader": { "WriteMdoe": "Insert", "Csv": {}, "Retry": { "MaxAtempts": 3 } }, "Loaders": { "Input": "x" }, "Logging": { "LogLevel": { "Default": "Warning" } } }""", _cancellation);

        var run = await LoaderRunner.RunWithArgumentsAsync(DryRun("--settings", file), _cancellation);

        Assert.Equal(ExitCodes.InvalidConfiguration, run.ExitCode);
        Assert.Contains($"  - Loader:WriteMdoe (in {file}) is not a setting; did you mean Loader:WriteMode?", run.Error, StringComparison.Ordinal);
        Assert.Contains($"  - Loader:Retry:MaxAtempts (in {file}) is not a setting; did you mean Loader:Retry:MaxAttempts?", run.Error, StringComparison.Ordinal);
        Assert.Contains($"  - Loaders (in {file}) is neither a Loader: setting nor a host section (Logging:, OTEL_*, APPLICATIONINSIGHTS_CONNECTION_STRING); did you mean Loader?", run.Error, StringComparison.Ordinal);
        Assert.Equal(5, run.Error.ReplaceLineEndings("\n").TrimEnd().Split('\n').Length); // heading, three, hint: the empty section and Logging pass
    }

    /// <summary>The environment holds every variable of the process: only those under Loader__ are the loader's to judge.</summary>
    [Fact]
    public async Task An_environment_variable_under_Loader_that_is_no_setting_is_named_as_a_variable()
    {
        await using var loader = LoaderProcess.StartIn(
            null,
            new Dictionary<string, string?> { ["Loader__WriteMdoe"] = "Insert", ["Loader__SettingsFile"] = "load.json", ["Loader__Csv__Delimiter"] = ";", ["SOME_OTHER_TOOL"] = "1" },
            DryRun());

        Assert.Equal(ExitCodes.InvalidConfiguration, await loader.WaitForExitAsync(TimeSpan.FromMinutes(1), _cancellation));
        Assert.Equal(
            [
                StartupFailure.InvalidSettingsHeading,
                "  - Loader:SettingsFile (the environment variable Loader__SettingsFile) is read from the command line only: --settings file.json.",
                "  - Loader:WriteMdoe (the environment variable Loader__WriteMdoe) is not a setting; did you mean Loader:WriteMode?",
                StartupFailure.HelpHint,
            ],
            loader.Error.ReplaceLineEndings("\n").TrimEnd().Split('\n'));
    }

    /// <summary>These stopped the process with exit 10 before it could list a setting: the host could not even be built.</summary>
    [Theory]
    [InlineData("missing.json", "Loader:SettingsFile (--settings) 'missing.json' does not exist")]
    [InlineData("broken.json", "Loader:SettingsFile (--settings) 'broken.json' is not a JSON object of settings: ")]
    [InlineData("array.json", "Loader:SettingsFile (--settings) 'array.json' is not a JSON object of settings: ")]
    [InlineData("", "Loader:SettingsFile (--settings) is not a path of a file: ''.")]
    public async Task A_settings_file_that_cannot_be_read_is_an_invalid_setting(string name, string message)
    {
        await File.WriteAllTextAsync(_directory.File("broken.json"), """{ "Loader": { """, _cancellation);
        await File.WriteAllTextAsync(_directory.File("array.json"), "[1, 2]", _cancellation);

        await using var loader = LoaderProcess.StartIn(_directory.Path, null, DryRun("--settings", name));

        Assert.Equal(ExitCodes.InvalidConfiguration, await loader.WaitForExitAsync(TimeSpan.FromMinutes(1), _cancellation));
        var listed = loader.Error.ReplaceLineEndings("\n").TrimEnd().Split('\n');
        Assert.Equal(StartupFailure.InvalidSettingsHeading, listed[0]);
        Assert.StartsWith("  - " + message, listed[1], StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_unknown_short_switch_with_a_value_is_listed_not_a_crash()
    {
        await using var loader = LoaderProcess.StartWithArguments(DryRun("-x=1"));

        Assert.Equal(ExitCodes.InvalidConfiguration, await loader.WaitForExitAsync(TimeSpan.FromMinutes(1), _cancellation));
        Assert.Contains("  - '-x' on the command line is not a switch.", loader.Error, StringComparison.Ordinal);
    }
}
