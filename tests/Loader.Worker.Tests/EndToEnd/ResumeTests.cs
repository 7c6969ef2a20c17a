using Loader.Worker.Checkpoints;
using Loader.Worker.Hosting;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>Checkpoints and resumption, in-process: a load stopped part way and started again ends with exactly the input in the table.</summary>
public sealed class ResumeTests(AzuriteFixture azurite) : IDisposable
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
        ["Loader:CheckpointPath"] = _directory.File("checkpoint.json"),
        ["Loader:RejectsPath"] = _directory.File("rejects.csv"),
        ["Loader:CheckpointInterval"] = "00:00:00.2",
    };

    private string Input(int rows, int everyNthBad = 0)
    {
        var csv = new CsvText("pk", "rk", "n");
        for (var i = 1; i <= rows; i++)
        {
            csv.Row($"p{i % 25}", $"r{i:D6}", everyNthBad > 0 && i % everyNthBad == 0 ? "bad" : i.ToString(System.Globalization.CultureInfo.InvariantCulture));
        }

        return _directory.WriteCsv("input.csv", csv.ToString());
    }

    /// <summary>Runs the loader and asks it to stop (as SIGTERM does) once it has written <paramref name="stopAfterRows"/> rows.</summary>
    /// <remarks>Written, not read: the reader runs far ahead of the writes, so a small input is read whole before the first batch lands.</remarks>
    private async Task<LoaderRun> RunStoppingAsync(Dictionary<string, string?> settings, long stopAfterRows)
    {
        using var stop = new CancellationTokenSource();
        var load = LoaderRunner.Start(settings, stop.Token);
        await load.WhenWrittenAsync(stopAfterRows, _cancellation);
        await stop.CancelAsync();
        return await load.Completion;
    }

    [Fact]
    public async Task A_stopped_load_started_again_skips_what_was_done_and_the_table_ends_equal_to_the_input()
    {
        var table = AzuriteFixture.UniqueTableName();
        var settings = Settings(Input(20_000, everyNthBad: 997), table);
        settings["Loader:Columns:n"] = "Int32";
        settings["Loader:MaxParallelBatches"] = "2";

        var first = await RunStoppingAsync(settings, stopAfterRows: 6_000);
        var stopped = first.RequireReport();
        Assert.Equal(ExitCodes.Stopped, first.ExitCode);
        Assert.Equal("Stopped", stopped.Outcome);
        Assert.True(stopped.Reconciled);
        var checkpoint = await CheckpointStore.AtPath(settings["Loader:CheckpointPath"]!).ReadAsync(_cancellation);
        Assert.NotNull(checkpoint);
        Assert.False(checkpoint.Completed);
        // The final checkpoint knows every row the stopped run settled (written, superseded or rejected), below its
        // watermark or in its window; only the rows of requests the stop cut off stay pending. A checkpoint that
        // stalled (a watermark left behind, a window dropped) settles fewer.
        var settled = stopped.RowsRead - stopped.RowsFailed;
        Assert.True(stopped.RowsWritten >= 6_000, $"the stopped run wrote {stopped.RowsWritten} rows");
        var pending = checkpoint.Pending.Sum(range => range[1] - range[0] + 1);
        Assert.Equal(stopped.RowsRead, checkpoint.ReadUpTo);
        Assert.Equal(settled, checkpoint.ReadUpTo - pending);
        Assert.InRange(checkpoint.NextRecord - 1, 0, settled);

        var second = await LoaderRunner.RunAsync(settings, _cancellation);

        var resumed = second.RequireReport();
        Assert.Equal(ExitCodes.Success, second.ExitCode);
        Assert.Equal(checkpoint.NextRecord, resumed.ResumedAtRecord);
        Assert.Equal(settled, resumed.RowsSkipped);
        Assert.Equal(20_000 - resumed.RowsSkipped, resumed.RowsRead);
        Assert.True(resumed.Reconciled);
        // The restart writes exactly what the stopped run did not: the rows it never read and those the stop left pending.
        Assert.Equal(20_000 - 20, stopped.RowsWritten + resumed.RowsWritten);
        Assert.Equal(20, stopped.RowsRejected + resumed.RowsRejected);
        var stored = await azurite.ReadTableAsync(table, _cancellation);
        Assert.Equal(20_000 - 20, stored.Count); // every 997th row is rejected
        Assert.All(stored, pair => Assert.Equal(int.Parse(pair.Key.Item2[1..], System.Globalization.CultureInfo.InvariantCulture), pair.Value.Properties["n"]));

        // Each rejected row is in the rejects file once, whether the first or the second run met it.
        var rejectLines = File.ReadAllLines(settings["Loader:RejectsPath"]!).Skip(1).Select(line => line.Split(',')[0]).ToList();
        Assert.Equal(20, rejectLines.Count);
        Assert.Equal(rejectLines.Distinct().Count(), rejectLines.Count);

        var final = await CheckpointStore.AtPath(settings["Loader:CheckpointPath"]!).ReadAsync(_cancellation);
        Assert.True(final!.Completed);
    }

    [Fact]
    public async Task A_checkpoint_of_another_load_is_refused_naming_what_differs()
    {
        var input = Input(10_000);
        var settings = Settings(input, AzuriteFixture.UniqueTableName());
        settings["Loader:MaxParallelBatches"] = "1";
        settings["Loader:MaxBufferedRows"] = "100"; // keeps the reader close behind the writes, so the stop comes mid-input
        var first = await RunStoppingAsync(settings, stopAfterRows: 500);
        Assert.Equal(ExitCodes.Stopped, first.ExitCode);

        settings["Loader:RowKey"] = "{rk}-{n}";
        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.InvalidConfiguration, run.ExitCode);
        Assert.Contains("belongs to another load: the settings differ: Loader:RowKey was '{rk}', is '{rk}-{n}'", run.RequireReport().Message, StringComparison.Ordinal);

        settings["Loader:RowKey"] = "{rk}";
        File.AppendAllText(input, "p1,r999999,9\n");
        var changed = await LoaderRunner.RunAsync(settings, _cancellation);
        Assert.Equal(ExitCodes.InvalidConfiguration, changed.ExitCode);
        Assert.Contains("belongs to another load: it was written for input 'input.csv' of", changed.RequireReport().Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task After_a_completed_load_the_next_run_is_a_new_load_from_the_top()
    {
        var settings = Settings(Input(500), AzuriteFixture.UniqueTableName());
        Assert.Equal(ExitCodes.Success, (await LoaderRunner.RunAsync(settings, _cancellation)).ExitCode);

        var again = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = again.RequireReport();
        Assert.Equal((500L, 500L, 0L), (report.RowsRead, report.RowsWritten, report.RowsSkipped));
        Assert.Null(report.ResumedAtRecord);
    }

    [Fact]
    public async Task Under_insert_a_resumed_load_counts_its_own_earlier_writes_as_already_written_not_as_conflicts()
    {
        var table = AzuriteFixture.UniqueTableName();
        var settings = Settings(Input(8_000), table);
        settings["Loader:WriteMode"] = "Insert";
        settings["Loader:MaxParallelBatches"] = "2";
        settings["Loader:MaxBufferedRows"] = "100";
        var first = await RunStoppingAsync(settings, stopAfterRows: 3_000);
        Assert.Equal(ExitCodes.Stopped, first.ExitCode);

        var second = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = second.RequireReport();
        Assert.Equal(ExitCodes.Success, second.ExitCode);
        Assert.Equal(0, report.RowsRejected);
        Assert.True(report.Reconciled);
        Assert.Equal(8_000, (await azurite.ReadTableAsync(table, _cancellation)).Count);
        Assert.Equal(8_000 - report.RowsSkipped, report.RowsWritten + report.RowsAlreadyWritten);
    }
}
