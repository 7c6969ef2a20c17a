using Azure;
using Azure.Data.Tables;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Verify;

/// <summary>
/// <c>verify</c> against a real Azurite after a real load, through the loader's own host: clean after the load, then each
/// change made to the table behind the load's back named exactly, and nothing else.
/// </summary>
public sealed class VerifyTablesTests(AzuriteFixture azurite) : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private Dictionary<string, string?> Settings(string input, string table) => new()
    {
        ["Loader:Input"] = input,
        ["Loader:Tables:ConnectionString"] = azurite.ConnectionString,
        ["Loader:Tables:Table"] = table,
        ["Loader:PartitionKey"] = "{pk}",
        ["Loader:RowKey"] = "{rk}",
        ["Loader:Columns:n"] = "Int32",
        ["Loader:ReportPath"] = _directory.File("report.json"),
        ["Loader:RejectsPath"] = _directory.File("rejects.csv"),
    };

    /// <summary>Rows of three partitions: <c>p0</c>..<c>p2</c>, keys <c>r000</c>...</summary>
    private string Input(int rowsPerPartition, int seed = 1, string name = "input.csv")
    {
        var csv = new CsvText("pk", "rk", "n", "name");
        var rows = Enumerable.Range(0, 3).SelectMany(p => Enumerable.Range(0, rowsPerPartition).Select(r => (p, r))).ToList();
        foreach (var (p, r) in rows.OrderBy(_ => new Random(seed).Next()))
        {
            csv.Row($"p{p}", $"r{r:D3}", r, $"name {p}-{r}");
        }

        return _directory.WriteCsv(name, csv.ToString());
    }

    private async Task LoadAsync(Dictionary<string, string?> settings)
    {
        var load = await LoaderRunner.RunAsync(settings, _cancellation);
        Assert.True(load.ExitCode == ExitCodes.Success, load.Summary + load.Logs.AllText);
    }

    [Fact]
    public async Task After_a_load_verify_is_clean_then_names_exactly_the_deleted_the_changed_and_with_extra_the_stray_entity()
    {
        var table = AzuriteFixture.UniqueTableName("verify");
        var settings = Settings(Input(20), table);
        await LoadAsync(settings);

        var clean = await VerifyRunner.RunAsync(settings, _cancellation, "--extra");
        var report = clean.RequireReport();
        Assert.True(clean.ExitCode == ExitCodes.Success, clean.Summary);
        Assert.Equal((60L, 60L, 0L, 0L, 0L, 0L), (report.RowsRead, report.RowsMatching, report.RowsMissing, report.RowsDifferent, report.RowsDuplicateNotWon, report.ExtraEntities));
        Assert.Equal((3L, 60L), (report.Partitions, report.EntitiesRead));
        Assert.True(report.Reconciled);
        Assert.Contains("Verify MATCHES", clean.Summary, StringComparison.Ordinal);

        var client = azurite.Client.GetTableClient(table);
        await client.DeleteEntityAsync("p1", "r005", ETag.All, _cancellation);
        var changed = (await client.GetEntityAsync<TableEntity>("p2", "r007", cancellationToken: _cancellation)).Value;
        changed["n"] = 700;
        await client.UpdateEntityAsync(changed, ETag.All, TableUpdateMode.Replace, _cancellation);
        await client.AddEntityAsync(new TableEntity("p0", "stray") { ["n"] = 1 }, _cancellation);

        var differs = await VerifyRunner.RunAsync(settings, _cancellation);
        Assert.Equal(ExitCodes.TargetDiffers, differs.ExitCode);
        Assert.Equal(["Different p2/r007", "Missing p1/r005"], differs.Findings());
        var different = differs.RequireReport().Examples.Different.Single();
        Assert.Equal(("n", "7", "700"), (different.Property, different.Expected, different.Stored));
        Assert.Null(differs.RequireReport().ExtraEntities);

        var withExtra = await VerifyRunner.RunAsync(settings, _cancellation, "--extra");
        Assert.Equal(ExitCodes.TargetDiffers, withExtra.ExitCode);
        Assert.Equal(["Different p2/r007", "Extra p0/stray", "Missing p1/r005"], withExtra.Findings());
        var counts = withExtra.RequireReport();
        Assert.Equal((58L, 1L, 1L, 1L), (counts.RowsMatching, counts.RowsMissing, counts.RowsDifferent, counts.ExtraEntities));
        Assert.True(File.Exists(_directory.File("report.verify.json")));
        Assert.True(File.Exists(_directory.File("report.verify.html")));
        Assert.Equal(60, Loader.Worker.Reporting.ReportWriter.Read(_directory.File("report.json")).RowsWritten);
        TestContext.Current.TestOutputHelper!.WriteLine(withExtra.Summary);
    }

    /// <summary>
    /// Rows the load's rejects file lists are expected absent: a conflict under Insert (the key held something else before
    /// the load) is neither missing nor different with the rejects file, and is different without it.
    /// </summary>
    [Fact]
    public async Task A_row_the_rejects_file_lists_is_expected_absent_not_missing_or_different()
    {
        var table = AzuriteFixture.UniqueTableName("verify");
        var settings = Settings(Input(10), table);
        settings["Loader:WriteMode"] = "Insert";
        var client = azurite.Client.GetTableClient(table);
        await client.CreateIfNotExistsAsync(_cancellation);
        await client.AddEntityAsync(new TableEntity("p0", "r004") { ["n"] = 44 }, _cancellation);
        var load = await LoaderRunner.RunAsync(settings, _cancellation);
        Assert.Equal((29L, 1L), (load.RequireReport().RowsWritten, load.RequireReport().RowsRejected));

        var verified = await VerifyRunner.RunAsync(settings, _cancellation, "--extra");
        Assert.True(verified.ExitCode == ExitCodes.Success, verified.Summary);
        Assert.Equal((30L, 29L, 1L, 0L, 0L), (verified.RequireReport().RowsRead, verified.RequireReport().RowsMatching, verified.RequireReport().RowsRejected, verified.RequireReport().RowsMissing, verified.RequireReport().RowsDifferent));

        settings["Loader:RejectsPath"] = null;
        var withoutRejects = await VerifyRunner.RunAsync(settings, _cancellation);
        Assert.Equal(ExitCodes.TargetDiffers, withoutRejects.ExitCode);
        Assert.Equal(["Different p0/r004"], withoutRejects.Findings());
    }

    /// <summary>A key the input names twice: the later row stands (the earlier superseded); a store holding the earlier row is a duplicate that did not win, naming both lines.</summary>
    [Fact]
    public async Task A_repeated_key_whose_store_holds_the_earlier_row_is_a_duplicate_not_won()
    {
        var csv = new CsvText("pk", "rk", "n", "name").Row("p0", "a", 1, "first").Row("p0", "b", 2, "other").Row("p0", "a", 3, "second");
        var table = AzuriteFixture.UniqueTableName("verify");
        var settings = Settings(_directory.WriteCsv("twice.csv", csv.ToString()), table);
        await LoadAsync(settings);

        var clean = await VerifyRunner.RunAsync(settings, _cancellation);
        Assert.True(clean.ExitCode == ExitCodes.Success, clean.Summary);
        Assert.Equal((3L, 2L, 1L), (clean.RequireReport().RowsRead, clean.RequireReport().RowsMatching, clean.RequireReport().RowsSuperseded));

        var earlier = new TableEntity("p0", "a") { ["pk"] = "p0", ["rk"] = "a", ["n"] = 1, ["name"] = "first" };
        await azurite.Client.GetTableClient(table).UpsertEntityAsync(earlier, TableUpdateMode.Replace, _cancellation);

        var lost = await VerifyRunner.RunAsync(settings, _cancellation);
        Assert.Equal(ExitCodes.TargetDiffers, lost.ExitCode);
        Assert.Equal(["DuplicateNotWon p0/a"], lost.Findings());
        var example = lost.RequireReport().Examples.DuplicateNotWon.Single();
        Assert.Equal((4L, 2L, "n", "3", "1"), (example.Line, example.StoredLine, example.Property, example.Expected, example.Stored));
    }

    /// <summary>
    /// Unsorted input larger than Loader:Verify:RowsInMemory: the rows go through sorted runs on disk, each partition is
    /// compared in several passes (windows of row keys), and still every key is checked once and every stray found once.
    /// </summary>
    [Fact]
    public async Task Unsorted_input_beyond_the_rows_in_memory_is_sorted_on_disk_and_compared_in_windows()
    {
        var table = AzuriteFixture.UniqueTableName("verify");
        var settings = Settings(Input(250, seed: 5), table);
        await LoadAsync(settings);
        settings["Loader:Verify:RowsInMemory"] = "100";

        var clean = await VerifyRunner.RunAsync(settings, _cancellation, "--extra");
        var report = clean.RequireReport();
        Assert.True(clean.ExitCode == ExitCodes.Success, clean.Summary);
        Assert.Equal((750L, 750L, 0L), (report.RowsRead, report.RowsMatching, report.ExtraEntities));
        Assert.True(report.SpilledRuns >= 7, $"{report.SpilledRuns} runs spilled");
        Assert.Equal(3, report.Partitions);
        Assert.True(report.PartitionPasses >= 9, $"{report.PartitionPasses} passes");

        var client = azurite.Client.GetTableClient(table);
        await client.DeleteEntityAsync("p1", "r200", ETag.All, _cancellation);
        await client.AddEntityAsync(new TableEntity("p1", "r0505") { ["n"] = 1 }, _cancellation);
        await client.AddEntityAsync(new TableEntity("p1", "zzz") { ["n"] = 1 }, _cancellation);
        await client.AddEntityAsync(new TableEntity("p2", "") { ["n"] = 1 }, _cancellation);

        var differs = await VerifyRunner.RunAsync(settings, _cancellation, "--extra");
        Assert.Equal(ExitCodes.TargetDiffers, differs.ExitCode);
        Assert.Equal(["Extra p1/r0505", "Extra p1/zzz", "Extra p2/", "Missing p1/r200"], differs.Findings());
        Assert.Equal((749L, 1L, 3L), (differs.RequireReport().RowsMatching, differs.RequireReport().RowsMissing, differs.RequireReport().ExtraEntities));
    }
}
