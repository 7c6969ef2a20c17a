using System.Globalization;
using System.Text.Json;
using Loader.Worker.Backends.Tables;
using Loader.Worker.Checkpoints;
using Loader.Worker.Hosting;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// The loader in its own process, stopped the two ways a container is: killed outright (SIGKILL: a crash, an
/// out-of-memory kill) and asked to stop (SIGTERM: Container Apps, docker stop). Started again, it finishes the load
/// and the table ends exactly equal to the input.
/// </summary>
public sealed class ProcessStopTests(AzuriteFixture azurite) : IDisposable
{
    private static readonly TimeSpan s_loadTimeout = TimeSpan.FromMinutes(10);

    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task A_load_killed_midway_and_started_again_ends_with_the_table_equal_to_the_input_having_written_far_less_than_a_full_load()
    {
        const int Rows = 200_000;
        // Its own Azurite: two hundred thousand rows would slow the shared one for every other test.
        await using var service = await AzuriteProcess.StartAsync(cancellationToken: _cancellation);
        var settings = Settings(Input(Rows), service.ConnectionString, "crash");

        await using (var first = LoaderProcess.Start(settings))
        {
            await WhenSettledAsync(settings, Rows * 2 / 5, first);
            await first.KillAsync();
        }

        var atKill = (await Checkpoints(settings).ReadAsync(_cancellation))!;
        Assert.False(atKill.Completed);

        await using var restart = LoaderProcess.Start(settings);
        Assert.Equal(ExitCodes.Success, await restart.WaitForExitAsync(s_loadTimeout, _cancellation));

        var report = ReadReport(settings);
        var skipped = report.GetProperty("rowsSkipped").GetInt64();
        var written = report.GetProperty("rowsWritten").GetInt64();
        var alreadyWritten = report.GetProperty("rowsAlreadyWritten").GetInt64();
        Assert.Equal(atKill.NextRecord - 1, skipped);
        Assert.True(report.GetProperty("reconciled").GetBoolean());
        Assert.Equal(Rows - skipped, written + alreadyWritten);
        Assert.True(written < Rows * 0.7, $"the restart wrote {written:N0} rows");
        await AssertTableEqualsInputAsync(TableRestClient.FromConnectionString(service.ConnectionString), settings, Rows);
        Measurements.Record(string.Create(CultureInfo.InvariantCulture,
            $"SIGKILL after {atKill.NextRecord - 1:N0} settled rows: the restart skipped {skipped:N0} and wrote {written:N0} rows; a full load writes {Rows:N0}; the table holds all {Rows:N0}."));
    }

    [Fact]
    public async Task On_SIGTERM_it_stops_writes_checkpoint_and_report_exits_non_zero_and_a_restart_completes_the_load()
    {
        const int Rows = 60_000;
        var settings = Settings(Input(Rows), azurite.ConnectionString, "sigterm");
        settings["Loader:MaxBufferedRows"] = "2000"; // the reader stays close behind the writes, so the stop lands mid-input

        await using (var first = LoaderProcess.Start(settings))
        {
            await WhenSettledAsync(settings, 5_000, first);
            first.Terminate();
            Assert.Equal(ExitCodes.Stopped, await first.WaitForExitAsync(TimeSpan.FromMinutes(1), _cancellation));
        }

        var stopped = ReadReport(settings);
        Assert.Equal("Stopped", stopped.GetProperty("outcome").GetString());
        Assert.True(stopped.GetProperty("reconciled").GetBoolean());
        var checkpoint = (await Checkpoints(settings).ReadAsync(_cancellation))!;
        Assert.False(checkpoint.Completed);
        Assert.InRange(checkpoint.NextRecord - 1, 5_000, Rows - 1);

        await using var restart = LoaderProcess.Start(settings);
        Assert.Equal(ExitCodes.Success, await restart.WaitForExitAsync(s_loadTimeout, _cancellation));

        Assert.Equal(checkpoint.NextRecord - 1, ReadReport(settings).GetProperty("rowsSkipped").GetInt64());
        await AssertTableEqualsInputAsync(azurite.Client, settings, Rows);
    }

    private Dictionary<string, string?> Settings(string input, string connectionString, string name) => new()
    {
        ["Loader:Input"] = input,
        ["Loader:Tables:ConnectionString"] = connectionString,
        ["Loader:Tables:Table"] = AzuriteFixture.UniqueTableName(name),
        ["Loader:PartitionKey"] = "{pk}",
        ["Loader:RowKey"] = "{rk}",
        ["Loader:Columns:n"] = "Int32",
        ["Loader:CheckpointPath"] = _directory.File("checkpoint.json"),
        ["Loader:CheckpointInterval"] = "00:00:00.5",
        ["Loader:ReportPath"] = _directory.File("report.json"),
        ["Loader:RejectsPath"] = _directory.File("rejects.csv"),
    };

    private string Input(int rows)
    {
        using var writer = new StreamWriter(_directory.File("input.csv"));
        writer.Write("pk,rk,n,note\n");
        for (var i = 1; i <= rows; i++)
        {
            writer.Write(string.Create(CultureInfo.InvariantCulture, $"p{i % 300},r{i:D7},{i},row {i}\n"));
        }

        return _directory.File("input.csv");
    }

    private static CheckpointStore Checkpoints(Dictionary<string, string?> settings) => CheckpointStore.AtPath(settings["Loader:CheckpointPath"]!);

    /// <summary>Waits until the loader's checkpoint shows at least <paramref name="rows"/> rows settled.</summary>
    private async Task WhenSettledAsync(Dictionary<string, string?> settings, long rows, LoaderProcess loader)
    {
        var store = Checkpoints(settings);
        while ((await store.ReadAsync(_cancellation))?.NextRecord - 1 is not { } settled || settled < rows)
        {
            Assert.False(loader.HasExited, $"the loader exited before {rows:N0} rows were settled:{Environment.NewLine}{loader.Output}");
            await Task.Delay(100, _cancellation);
        }
    }

    private static JsonElement ReadReport(Dictionary<string, string?> settings) =>
        JsonDocument.Parse(File.ReadAllText(settings["Loader:ReportPath"]!)).RootElement.Clone();

    private async Task AssertTableEqualsInputAsync(TableRestClient client, Dictionary<string, string?> settings, int rows)
    {
        var stored = await AzuriteFixture.ReadTableAsync(client, settings["Loader:Tables:Table"]!, _cancellation);
        Assert.Equal(rows, stored.Count);
        for (var i = 1; i <= rows; i++)
        {
            var key = (string.Create(CultureInfo.InvariantCulture, $"p{i % 300}"), string.Create(CultureInfo.InvariantCulture, $"r{i:D7}"));
            Assert.True(stored.TryGetValue(key, out var entity), $"row {i} is missing");
            Assert.Equal(i, entity.Properties["n"]);
            Assert.Equal(string.Create(CultureInfo.InvariantCulture, $"row {i}"), entity.Properties["note"]);
        }
    }
}
