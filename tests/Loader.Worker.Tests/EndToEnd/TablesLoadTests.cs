using Loader.Worker.Hosting;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>Whole loads through the real host into a real Azurite, read back and compared value by value.</summary>
public sealed class TablesLoadTests(AzuriteFixture azurite)
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;

    private Dictionary<string, string?> Settings(string input, string table, string partitionKey = "{pk}", string rowKey = "{rk}") => new()
    {
        ["Loader:Input"] = input,
        ["Loader:Tables:ConnectionString"] = azurite.ConnectionString,
        ["Loader:Tables:Table"] = table,
        ["Loader:PartitionKey"] = partitionKey,
        ["Loader:RowKey"] = rowKey,
        ["Loader:ProgressInterval"] = "00:00:01",
    };

    [Fact]
    public async Task Loads_the_sample_and_reads_every_row_back()
    {
        var table = AzuriteFixture.UniqueTableName();
        var settings = Settings(Path.Combine(RepositoryPaths.Data, "sample.csv"), table, "{dest}", "{year}-{month}-{day}-{carrier}-{flight}");
        settings["Loader:Columns:year"] = "Int32";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal(300, report.RowsRead);
        Assert.Equal(300, report.RowsWritten);
        Assert.True(report.Reconciled);
        var stored = await azurite.ReadTableAsync(table, _cancellation);
        Assert.Equal(300, stored.Count);
    }
}
