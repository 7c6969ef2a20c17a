using System.Globalization;
using System.Text.Json;
using Loader.Worker.Checkpoints;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;
using Loader.Worker.Tests.Parquet;
using Loader.Worker.Tests.Storage.Blobs;
using Parquet;
using Parquet.Schema;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// A Parquet load killed mid-file by the real process and started again resumes from its checkpoint (a row group plus
/// row) and ends with the table equal to the input; a file changed under the checkpoint is refused on resume (exit 2).
/// </summary>
public sealed class ParquetResumeTests(BlobAzuriteFixture azurite) : IClassFixture<BlobAzuriteFixture>, IDisposable
{
    private const int Rows = 30_000;

    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private static Dictionary<string, object?> Row(int id) => new()
    {
        ["id"] = id,
        ["pk"] = string.Create(CultureInfo.InvariantCulture, $"p{id % 13}"),
        ["amount"] = id * 0.5,
        ["note"] = string.Create(CultureInfo.InvariantCulture, $"row {id}"),
    };

    private static Dictionary<string, object?> Changed(int id)
    {
        var row = Row(id);
        if (id == 10)
        {
            row["amount"] = 5.25; // 5.0 before: eight bytes of a plain double, between its row group's least and greatest
        }

        return row;
    }

    private static ParquetSchema Schema { get; } = new(new DataField<int>("id"), new DataField<string>("pk", nullable: false), new DataField<double>("amount"), new DataField<string>("note", nullable: true));

    private Dictionary<string, string?> Settings(string input, string table) => new()
    {
        ["Loader:Input"] = input,
        ["Loader:Tables:ConnectionString"] = azurite.Azurite.ConnectionString,
        ["Loader:Tables:Table"] = table,
        ["Loader:PartitionKey"] = "{pk}",
        ["Loader:RowKey"] = "{id}",
        ["Loader:CheckpointPath"] = _directory.File($"{table}-checkpoint.json"),
        ["Loader:ReportPath"] = _directory.File($"{table}-report.json"),
        ["Loader:CheckpointInterval"] = "00:00:00.5",
        ["Loader:ProgressInterval"] = "00:00:00.1",
        ["Loader:MaxRowsPerSecond"] = "4000",
        ["Loader:LogFormat"] = "Json",
    };

    /// <summary>
    /// Runs the load until it has written 9,000 rows and a checkpoint past the first row group, then kills it, as a crash
    /// would. The checkpoint is waited for, not assumed: on a busy machine one partition's batch may still be in flight
    /// thousands of rows after the others, holding the checkpoint back.
    /// </summary>
    private async Task KillMidFileAsync(Dictionary<string, string?> settings)
    {
        await using var first = LoaderProcess.Start(settings);
        await first.WhenWrittenAsync(9_000, _cancellation);
        var checkpoints = CheckpointStore.AtPath(settings["Loader:CheckpointPath"]!);
        while ((File.Exists(settings["Loader:CheckpointPath"]) ? await checkpoints.ReadAsync(_cancellation) : null) is not { NextRecord: > 2_500 })
        {
            Assert.False(first.HasExited, $"the loader exited before it checkpointed past the first row group:{Environment.NewLine}{first.Output}");
            await Task.Delay(50, _cancellation);
        }

        await first.KillAsync();
    }

    [Fact]
    public async Task A_load_killed_mid_file_resumes_from_its_checkpoint_and_ends_with_the_table_equal_to_the_input()
    {
        var path = _directory.File("resume.parquet");
        await ParquetTestFile.WriteAsync(path, Schema, Enumerable.Range(1, Rows).Select(Row), rowGroupSize: 2_500, _cancellation);
        var table = AzuriteFixture.UniqueTableName("presume");
        var settings = Settings(path, table);

        await KillMidFileAsync(settings);

        settings.Remove("Loader:MaxRowsPerSecond");
        await using var second = LoaderProcess.Start(settings);
        var exit = await second.WaitForExitAsync(TimeSpan.FromMinutes(3), _cancellation);

        Assert.True(exit == ExitCodes.Success, second.Output);
        var report = JsonDocument.Parse(await File.ReadAllTextAsync(settings["Loader:ReportPath"]!, _cancellation)).RootElement;
        Assert.True(report.GetProperty("resumedAtRecord").GetInt64() > 2_500, report.ToString());
        var stored = await AzuriteFixture.ReadTableAsync(azurite.Azurite.ConnectionString, table, _cancellation);
        Assert.Equal(Rows, stored.Count);
        foreach (var id in Enumerable.Range(1, Rows))
        {
            var entity = stored[(string.Create(CultureInfo.InvariantCulture, $"p{id % 13}"), id.ToString(CultureInfo.InvariantCulture))].Properties;
            Assert.Equal((id * 0.5, $"row {id}"), ((double)entity["amount"], (string)entity["note"]));
        }
    }

    [Fact]
    public async Task A_file_changed_under_the_checkpoint_is_refused_on_resume()
    {
        var path = _directory.File("changed.parquet");
        await ParquetTestFile.WriteAsync(path, Schema, Enumerable.Range(1, Rows).Select(Row), rowGroupSize: 2_500, _cancellation, CompressionMethod.None);
        var table = AzuriteFixture.UniqueTableName("pchanged");
        var settings = Settings(path, table);

        await KillMidFileAsync(settings);

        // One value early in the file changed, the file's size and time kept: only the fingerprint of the rows can tell.
        var (length, written) = (new FileInfo(path).Length, File.GetLastWriteTimeUtc(path));
        await ParquetTestFile.WriteAsync(path, Schema, Enumerable.Range(1, Rows).Select(Changed), rowGroupSize: 2_500, _cancellation, CompressionMethod.None);
        File.SetLastWriteTimeUtc(path, written);
        Assert.Equal(length, new FileInfo(path).Length);
        await using var second = LoaderProcess.Start(settings);
        var exit = await second.WaitForExitAsync(TimeSpan.FromMinutes(3), _cancellation);

        Assert.True(exit == ExitCodes.InvalidConfiguration, second.Output);
        Assert.Contains("changed", second.Output, StringComparison.OrdinalIgnoreCase);
    }
}
