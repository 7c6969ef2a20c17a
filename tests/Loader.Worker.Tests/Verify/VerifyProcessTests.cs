using Azure;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Verify;

/// <summary><c>verify</c> as a user runs it, its own process: the exit code, the summary on standard output, and a setting mistake refused at start.</summary>
public sealed class VerifyProcessTests(AzuriteFixture azurite) : IDisposable
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(5);
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task A_missing_entity_is_exit_8_and_the_summary_names_it()
    {
        var table = AzuriteFixture.UniqueTableName("vproc");
        var settings = new Dictionary<string, string?>
        {
            ["Loader:Input"] = Path.Combine(RepositoryPaths.Data, "sample.csv"),
            ["Loader:Tables:ConnectionString"] = azurite.ConnectionString,
            ["Loader:Tables:Table"] = table,
            ["Loader:PartitionKey"] = "{dest}",
            ["Loader:RowKey"] = "{year}-{month}-{day}-{carrier}-{flight}",
            ["Loader:Columns:year"] = "Int32",
            ["Loader:ReportPath"] = _directory.File("report.json"),
            ["Loader:LogFormat"] = "Text",
        };
        var load = await LoaderRunner.RunAsync(settings, _cancellation);
        Assert.True(load.ExitCode == ExitCodes.Success, load.Summary);

        await using (var clean = LoaderProcess.Start("verify", settings))
        {
            Assert.True(await clean.WaitForExitAsync(s_timeout, _cancellation) == ExitCodes.Success, clean.Output);
            Assert.Contains("Verify MATCHES", clean.Output, StringComparison.Ordinal);
        }

        await azurite.Client.GetTableClient(table).DeleteEntityAsync("DEN", "2024-2-5-WN-2667", ETag.All, _cancellation);
        await using var verify = LoaderProcess.Start("verify", settings);
        Assert.Equal(ExitCodes.TargetDiffers, await verify.WaitForExitAsync(s_timeout, _cancellation));
        Assert.Contains("Verify DIFFERS", verify.Output, StringComparison.Ordinal);
        Assert.Matches(@"rows missing\s+1\b", verify.Output);
        Assert.Contains("missing             'DEN' / '2024-2-5-WN-2667' (line ", verify.Output, StringComparison.Ordinal);
        Assert.Contains("report.verify.json", verify.Output, StringComparison.Ordinal);
        Assert.Equal(300, Loader.Worker.Reporting.ReportWriter.Read(_directory.File("report.json")).RowsWritten);
    }

    [Theory]
    [InlineData("--dry-run", "Loader:DryRun")]
    [InlineData("--Loader:Verify:RowsInMemory=5", "Loader:Verify:RowsInMemory")]
    public async Task A_setting_mistake_is_exit_2_naming_the_setting(string argument, string setting)
    {
        await using var verify = LoaderProcess.StartWithArguments(
            "verify", argument, "--input", Path.Combine(RepositoryPaths.Data, "sample.csv"), "--table", "t", "--partition-key", "{dest}", "--row-key", "{flight}");
        Assert.Equal(ExitCodes.InvalidConfiguration, await verify.WaitForExitAsync(s_timeout, _cancellation));
        Assert.Contains(setting, verify.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", verify.Output, StringComparison.Ordinal);
    }
}
