using System.Globalization;
using System.Text;
using Azure.Storage.Blobs;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.Shards;

/// <summary>
/// A sharded load of JSON Lines as users run it, each verb its own process, on Azurite's Queue, Blob and Table services:
/// the plan cuts one blob into byte ranges at line starts, two work processes load them, status reconciles, and the table
/// equals the input.
/// </summary>
public sealed class JsonLinesShardedLoadTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(10);

    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;

    [Fact]
    public async Task Two_workers_load_range_shards_of_a_json_lines_blob_and_the_table_equals_the_input()
    {
        const int rows = 20_000;
        const int badLine = 12_345;
        await using var azurite = await AzuriteProcess.StartAsync(withQueue: true, cancellationToken: _cancellation);
        var text = new StringBuilder();
        for (var i = 1; i <= rows; i++)
        {
            text.Append(i == badLine ? "{\"pk\":\"broken\"\n" : string.Create(CultureInfo.InvariantCulture, $"{{\"pk\":\"p{i % 7}\",\"id\":\"r{i:D6}\",\"n\":{i},\"o\":{{\"s\":\"row {i}\"}}}}\n"));
        }

        var container = new BlobServiceClient(azurite.ConnectionString).GetBlobContainerClient("input");
        await container.CreateIfNotExistsAsync(cancellationToken: _cancellation);
        await container.GetBlobClient("docs/all.jsonl").UploadAsync(BinaryData.FromString(text.ToString()), _cancellation);
        var table = AzuriteFixture.UniqueTableName("jlshards");
        var settings = RangeShardSettings.For(azurite, "docs/", table, "jl", 200000);

        var (planExit, planOutput) = await RunAsync("plan", settings);
        Assert.True(planExit == ExitCodes.Success, planOutput);
        Assert.Contains("cut into", planOutput, StringComparison.Ordinal);
        var workers = Enumerable.Range(0, 2).Select(_ => LoaderProcess.Start("work", settings)).ToList();
        foreach (var worker in workers)
        {
            await using (worker)
            {
                Assert.True(await worker.WaitForExitAsync(s_timeout, _cancellation) == ExitCodes.Success, worker.Output);
            }
        }

        var (statusExit, statusOutput) = await RunAsync("status", settings);
        Assert.True(statusExit == ExitCodes.Success, statusOutput);
        Assert.Contains("COMPLETE, reconciled", statusOutput, StringComparison.Ordinal);
        Assert.Contains($"rows         {rows:N0} = ", statusOutput, StringComparison.Ordinal);
        var stored = await AzuriteFixture.ReadTableAsync(azurite.ConnectionString, table, _cancellation);
        Assert.Equal(rows - 1, stored.Count);
        foreach (var i in Enumerable.Range(1, rows).Where(i => i != badLine))
        {
            var entity = stored[(string.Create(CultureInfo.InvariantCulture, $"p{i % 7}"), string.Create(CultureInfo.InvariantCulture, $"r{i:D6}"))];
            Assert.Equal(((long)i, string.Create(CultureInfo.InvariantCulture, $"row {i}")), ((long)entity.Properties["n"], (string)entity.Properties["o_s"]));
        }
    }

    private async Task<(int ExitCode, string Output)> RunAsync(string verb, Dictionary<string, string?> settings)
    {
        await using var process = LoaderProcess.Start(verb, settings);
        var exit = await process.WaitForExitAsync(s_timeout, _cancellation);
        return (exit, process.Output);
    }
}
