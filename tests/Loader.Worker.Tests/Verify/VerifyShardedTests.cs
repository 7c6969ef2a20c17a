using Azure;
using Azure.Data.Tables;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Verify;

/// <summary>
/// <c>verify</c> of a sharded load (plan and work as their own processes, state and queue on Azurite): every range shard's
/// share read with that shard's rejects file, whose lines are the shard's own.
/// </summary>
public sealed class VerifyShardedTests : IDisposable
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(10);
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task Verify_checks_every_range_shard_with_its_own_rejects_and_names_a_deleted_entity_by_its_file_line()
    {
        await using var azurite = await AzuriteProcess.StartAsync(withQueue: true, cancellationToken: _cancellation);
        var csv = new CsvText("pk", "rk", "n", "name");
        for (var i = 0; i < 6000; i++)
        {
            // Line 4002 cannot be mapped (n is no Int32); line 5502 meets an entity stored before the load (an Insert conflict).
            csv.Row($"p{i % 7}", $"r{i:D5}", i == 4000 ? "x" : i, $"name {i}");
        }

        var table = AzuriteFixture.UniqueTableName("vshard");
        var settings = new Dictionary<string, string?>
        {
            ["Loader:Input"] = _directory.WriteCsv("input.csv", csv.ToString()),
            ["Loader:Tables:ConnectionString"] = azurite.ConnectionString,
            ["Loader:Tables:Table"] = table,
            ["Loader:PartitionKey"] = "{pk}",
            ["Loader:RowKey"] = "{rk}",
            ["Loader:Columns:n"] = "Int32",
            ["Loader:WriteMode"] = "Insert",
            ["Loader:Blob:ConnectionString"] = azurite.ConnectionString,
            ["Loader:Shards:State"] = $"{azurite.BlobEndpoint}/state/{table}/",
            ["Loader:Shards:Queue"] = $"{azurite.QueueEndpoint}/{table}-shards",
            ["Loader:Shards:By"] = "Range",
            ["Loader:Shards:TargetBytes"] = "65536",
            ["Loader:Shards:PollInterval"] = "00:00:01",
            ["Loader:ReportPath"] = _directory.File("status.json"),
        };
        var client = new TableServiceClient(azurite.ConnectionString).GetTableClient(table);
        await client.CreateIfNotExistsAsync(_cancellation);
        await client.AddEntityAsync(new TableEntity("p5", "r05500") { ["n"] = -1 }, _cancellation);

        foreach (var verb in new[] { "plan", "work" })
        {
            await using var process = LoaderProcess.Start(verb, settings);
            Assert.True(await process.WaitForExitAsync(s_timeout, _cancellation) == ExitCodes.Success, process.Output);
        }

        var clean = await VerifyRunner.RunAsync(settings, _cancellation, "--extra");
        var report = clean.RequireReport();
        Assert.True(clean.ExitCode == ExitCodes.Success, clean.Summary + clean.Logs.AllText);
        Assert.True(report.Shards >= 2, $"{report.Shards} shards");
        Assert.Equal((6000L, 5998L, 2L, 0L), (report.RowsRead, report.RowsMatching, report.RowsRejected, report.ExtraEntities));
        Assert.Equal(report.Shards, report.RejectsFiles.Count);

        await client.DeleteEntityAsync("p2", "r05000", ETag.All, _cancellation);
        var differs = await VerifyRunner.RunAsync(settings, _cancellation);
        Assert.Equal(ExitCodes.TargetDiffers, differs.ExitCode);
        var missing = Assert.Single(differs.RequireReport().Examples.Missing);
        Assert.Equal(("p2", "r05000", 5002L), (missing.PartitionKey, missing.RowKey, missing.FileLine));
    }
}
