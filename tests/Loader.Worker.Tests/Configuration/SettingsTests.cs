using Loader.Worker.Configuration;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Configuration;

/// <summary>Settings as a user gives them: on the command line, checked at start, with messages naming the key.</summary>
public sealed class SettingsTests(AzuriteFixture azurite) : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string Input() => _directory.WriteCsv("in.csv", "pk,rk,v\np,1,a\n");

    [Fact]
    public async Task Invalid_settings_fail_at_start_naming_each_key()
    {
        var run = await LoaderRunner.RunWithArgumentsAsync(
            ["--input", _directory.File("missing.csv"), "--table", "1bad", "--partition-key", "{pk", "--row-key", "{rk}", "--batch-size", "500", "--Loader:Csv:Delimiter=;;"],
            _cancellation);

        // The exit code and the listing are Program.cs's own (StartupFailure); its process runs in RejectCorpusTests.
        Assert.Equal(ExitCodes.InvalidConfiguration, run.ExitCode);
        var failures = run.Error;
        Assert.StartsWith("Invalid settings; nothing was loaded:", failures, StringComparison.Ordinal);
        Assert.Contains("Loader:Tables:Table '1bad' is not a valid table name", failures, StringComparison.Ordinal);
        Assert.Contains("Loader:PartitionKey '{pk' has a '{' at position 1 that is never closed", failures, StringComparison.Ordinal);
        Assert.Contains("Loader:BatchSize must be between 1 and 100, was 500", failures, StringComparison.Ordinal);
        Assert.Contains("Loader:Csv:Delimiter ';;' is not one ASCII character", failures, StringComparison.Ordinal);
    }

    /// <summary>Validation reads settings only; the input's absence is found where it is opened: exit 3, as an input that cannot be reached (it may be there later).</summary>
    [Fact]
    public async Task A_missing_input_file_is_named_with_its_setting_and_path_when_opened_and_nothing_is_loaded()
    {
        var table = AzuriteFixture.UniqueTableName();
        var missing = _directory.File("missing.csv");

        var run = await LoaderRunner.RunWithArgumentsAsync(
            ["--input", missing, "--table", table, "--partition-key", "{pk}", "--row-key", "{rk}", "--Loader:Tables:ConnectionString=" + azurite.ConnectionString],
            _cancellation);

        Assert.Equal(ExitCodes.Unavailable, run.ExitCode);
        Assert.Null(run.ValidationError);
        Assert.Equal($"Loader:Input '{missing}' does not exist.", run.RequireReport().Message);
        var notCreated = await Assert.ThrowsAsync<Azure.RequestFailedException>(async () => await azurite.ReadTableAsync(table, _cancellation));
        Assert.Equal(404, notCreated.Status);
    }

    [Fact]
    public void Required_settings_are_named_when_missing()
    {
        var result = new LoaderOptionsValidator().Validate(null, new LoaderOptions());

        Assert.Contains(result.Failures!, f => f.StartsWith("Loader:Input is required", StringComparison.Ordinal));
        Assert.Contains(result.Failures!, f => f.StartsWith("Loader:PartitionKey '' is empty", StringComparison.Ordinal));
        Assert.Contains(result.Failures!, f => f.StartsWith("Loader:Tables:Table is required", StringComparison.Ordinal));
    }

    [Fact]
    public void A_connection_string_problem_never_echoes_the_key()
    {
        var options = new LoaderOptions { Input = Input(), PartitionKey = "{pk}", RowKey = "{rk}" };
        options.Tables.Table = "flights";
        options.Tables.ConnectionString = "AccountName=acme;AccountKey=s3cr3t!!notbase64";

        var result = new LoaderOptionsValidator().Validate(null, options);

        var failure = Assert.Single(result.Failures!);
        Assert.StartsWith("Loader:Tables:ConnectionString is not a valid storage connection string", failure, StringComparison.Ordinal);
        Assert.DoesNotContain("s3cr3t", failure, StringComparison.Ordinal);
    }

    [Fact]
    public void An_Azure_Monitor_connection_string_without_an_instrumentation_key_is_named_without_echoing_it()
    {
        var options = new LoaderOptions { Input = Input(), PartitionKey = "{pk}", RowKey = "{rk}" };
        options.Tables.Table = "flights";
        options.Telemetry.AzureMonitorConnectionString = "IngestionEndpoint=https://s3cr3t.example/";

        var result = new LoaderOptionsValidator().Validate(null, options);

        var failure = Assert.Single(result.Failures!);
        Assert.StartsWith("Loader:Telemetry:AzureMonitorConnectionString is not an Application Insights connection string", failure, StringComparison.Ordinal);
        Assert.DoesNotContain("s3cr3t", failure, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_value_of_the_wrong_type_names_the_key()
    {
        var run = await LoaderRunner.RunWithArgumentsAsync(["--input", Input(), "--Loader:MaxParallelBatches=many"], _cancellation);

        Assert.Equal(ExitCodes.InvalidConfiguration, run.ExitCode);
        Assert.Contains("  - Failed to convert configuration value 'many' at 'Loader:MaxParallelBatches'", run.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Short_switches_and_environment_style_keys_configure_a_real_load()
    {
        var table = AzuriteFixture.UniqueTableName();

        var run = await LoaderRunner.RunWithArgumentsAsync(
            ["--input", Input(), "--table", table, "--partition-key", "{pk}", "--row-key", "{rk}", "--write-mode", "insert",
             "--Loader:Tables:ConnectionString=" + azurite.ConnectionString, "--report", _directory.File("r.json")],
            _cancellation);

        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.True(File.Exists(_directory.File("r.json")));
        Assert.Single(await azurite.ReadTableAsync(table, _cancellation));
    }

    [Fact]
    public async Task A_template_naming_a_missing_column_fails_before_anything_is_written()
    {
        var table = AzuriteFixture.UniqueTableName();

        var run = await LoaderRunner.RunWithArgumentsAsync(
            ["--input", Input(), "--table", table, "--partition-key", "{pk}", "--row-key", "{rk}-{flight}",
             "--Loader:Tables:ConnectionString=" + azurite.ConnectionString],
            _cancellation);

        Assert.Equal(ExitCodes.InvalidConfiguration, run.ExitCode);
        Assert.Contains("Loader:RowKey '{rk}-{flight}' uses column 'flight', which the header does not have", run.RequireReport().Message, StringComparison.Ordinal);
        var missing = await Assert.ThrowsAsync<Azure.RequestFailedException>(async () => await azurite.ReadTableAsync(table, _cancellation));
        Assert.Equal(404, missing.Status);
    }

    [Fact]
    public async Task A_wrong_account_key_is_reported_as_access_denied()
    {
        var wrongKey = azurite.ConnectionString.Replace(
            AzuriteProcess.DevelopmentAccountKey, Convert.ToBase64String(new byte[64]), StringComparison.Ordinal);

        var run = await LoaderRunner.RunWithArgumentsAsync(
            ["--input", Input(), "--table", AzuriteFixture.UniqueTableName(), "--partition-key", "{pk}", "--row-key", "{rk}", "--Loader:Tables:ConnectionString=" + wrongKey],
            _cancellation);

        Assert.Equal(ExitCodes.Unavailable, run.ExitCode);
        Assert.Contains("access denied (403)", run.RequireReport().Message, StringComparison.Ordinal);
        Assert.DoesNotContain(Convert.ToBase64String(new byte[64]), run.Logs.AllText, StringComparison.Ordinal);
    }

    [Fact]
    public void The_verbs_of_a_sharded_load_need_a_state_folder_and_a_queue_and_refuse_a_single_load_s_outputs()
    {
        Assert.Equal("--Loader:Command=Work", CommandLineAliases.Normalize(["work", "--dry-run"])[0]);
        var options = new LoaderOptions { Command = LoaderCommand.Work, Input = Input(), PartitionKey = "{pk}", RowKey = "{rk}", CheckpointPath = "c.json" };
        options.Tables.Table = "flights";
        options.Shards.Queue = "https://acme.blob.core.windows.net/shards";

        var failures = new LoaderOptionsValidator().Validate(null, options).Failures!.ToList();

        Assert.Contains(failures, f => f.StartsWith("Loader:Shards:State is required by work", StringComparison.Ordinal));
        Assert.Contains(failures, f => f.StartsWith("Loader:Shards:Queue: the host of", StringComparison.Ordinal));
        Assert.Contains(failures, f => f.StartsWith("Loader:CheckpointPath is not used by work", StringComparison.Ordinal));
        Assert.Equal(3, failures.Count);
    }
}
