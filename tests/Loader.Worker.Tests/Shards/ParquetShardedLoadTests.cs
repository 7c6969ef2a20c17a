using System.Globalization;
using Azure.Storage.Blobs;
using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;
using Loader.Worker.Shards;
using Loader.Worker.Tests.Infrastructure;
using Loader.Worker.Tests.Parquet;
using Parquet.Schema;

namespace Loader.Worker.Tests.Shards;

/// <summary>A Parquet blob of many row groups cut into range shards at row groups, loaded by three work processes on Azurite: the table equals the input.</summary>
public sealed class ParquetShardedLoadTests : IDisposable
{
    private const int Rows = 40_000;
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(10);

    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task Three_workers_load_range_shards_of_a_multi_row_group_parquet_blob_and_the_table_equals_the_input()
    {
        await using var azurite = await AzuriteProcess.StartAsync(withQueue: true, cancellationToken: _cancellation);
        var path = _directory.File("sharded.parquet");
        var schema = new ParquetSchema(new DataField<int>("id"), new DataField<string>("pk", nullable: false), new DataField<string>("note", nullable: true));
        await ParquetTestFile.WriteAsync(path, schema, Enumerable.Range(1, Rows).Select(id => new Dictionary<string, object?>
        {
            ["id"] = id,
            ["pk"] = string.Create(CultureInfo.InvariantCulture, $"p{id % 17}"),
            ["note"] = Note(id),
        }), rowGroupSize: 2_500, _cancellation);
        var bytes = await File.ReadAllBytesAsync(path, _cancellation);
        var input = new BlobServiceClient(azurite.ConnectionString).GetBlobContainerClient("input");
        await input.CreateIfNotExistsAsync(cancellationToken: _cancellation);
        await input.GetBlobClient("parquet/sharded.parquet").UploadAsync(BinaryData.FromBytes(bytes), _cancellation);
        var table = AzuriteFixture.UniqueTableName("pshard");
        var settings = RangeShardSettings.For(azurite, "parquet/", table, "pshard", Math.Max(65_536, bytes.Length / 5));

        var (planExit, planOutput) = await RunAsync("plan", settings);
        Assert.True(planExit == ExitCodes.Success, planOutput);
        var manifest = (await new BlobServiceClient(azurite.ConnectionString).GetBlobContainerClient("state").GetBlobClient("pshard/manifest.json")
            .DownloadContentAsync(_cancellation)).Value.Content.ToObjectFromJson<LoadManifest>(ReportWriter.JsonOptions)!;
        Assert.True(manifest.Shards.Count >= 3, $"the plan cut {manifest.Shards.Count} shards: {planOutput}");

        var workers = Enumerable.Range(0, 3).Select(_ => LoaderProcess.Start("work", settings)).ToList();
        foreach (var worker in workers)
        {
            await using (worker)
            {
                var exit = await worker.WaitForExitAsync(s_timeout, _cancellation);
                Assert.True(exit == ExitCodes.Success, worker.Output);
            }
        }

        var (statusExit, statusOutput) = await RunAsync("status", settings);
        Assert.True(statusExit == ExitCodes.Success, statusOutput);
        Assert.Contains("COMPLETE, reconciled", statusOutput, StringComparison.Ordinal);
        Assert.Contains($"rows         {Rows:N0} = ", statusOutput, StringComparison.Ordinal);
        var stored = await AzuriteFixture.ReadTableAsync(azurite.ConnectionString, table, _cancellation);
        Assert.Equal(Rows, stored.Count);
        foreach (var id in Enumerable.Range(1, Rows))
        {
            Assert.Equal(Note(id), stored[(string.Create(CultureInfo.InvariantCulture, $"p{id % 17}"), id.ToString(CultureInfo.InvariantCulture))].Properties["note"]);
        }
    }

    // A value snappy cannot shrink much, so the file spans several shards' worth of bytes.
    private static string Note(int id) => string.Create(CultureInfo.InvariantCulture, $"row {id} {new Guid(id, (short)(id * 7), (short)(id * 13), [1, 2, 3, 4, 5, 6, 7, (byte)id]):N}");

    private async Task<(int ExitCode, string Output)> RunAsync(string verb, Dictionary<string, string?> settings)
    {
        await using var process = LoaderProcess.Start(verb, settings);
        var exit = await process.WaitForExitAsync(s_timeout, _cancellation);
        return (exit, process.Output);
    }
}
