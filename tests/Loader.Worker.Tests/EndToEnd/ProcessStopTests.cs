using System.Globalization;
using System.Text.Json;
using Loader.Worker.Checkpoints;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// The loader in its own process, stopped the two ways a container is: killed outright (SIGKILL: a crash, an
/// out-of-memory kill) and asked to stop (SIGTERM: Container Apps, docker stop). Started again, it finishes the load
/// and the store ends exactly equal to the input. One suite; each backend says how to reach, count and read its store.
/// </summary>
public abstract class ProcessStopTests : IDisposable
{
    private static readonly TimeSpan s_loadTimeout = TimeSpan.FromMinutes(10);

    /// <summary>How late a checkpoint taken every second may be on a machine shared with other builds.</summary>
    private static readonly TimeSpan s_lateCheckpoint = TimeSpan.FromSeconds(10);

    /// <summary>
    /// Rows counted written that a checkpoint taken at that moment may not count settled yet: a batch's rows are counted
    /// as its answer arrives and settled once the batch is done (16 batches of 100 in flight by default), and a chunk of
    /// the batch stage's rows may land before the stage records that it read them.
    /// </summary>
    private static readonly long s_inFlight = (16 * 100) + Worker.Pipeline.ReadStage.ChunkSize;

    private readonly TestDirectory _directory = new();

    protected CancellationToken Cancellation { get; } = TestContext.Current.CancellationToken;

    /// <summary>Rows of the load killed at 40%, 60% and 80%.</summary>
    protected abstract int KilledLoadRows { get; }

    /// <summary>Rows of the load stopped with SIGTERM after 5,000 settled rows.</summary>
    protected virtual int StoppedLoadRows => 60_000;

    /// <summary>
    /// The pace of a load these tests stop mid-way: on a quiet machine the stand-in takes 30,000 rows in about two seconds,
    /// and the load ended before the test could stop it. Paced, it lasts about six seconds wherever it runs.
    /// </summary>
    private string StoppedLoadPace => (StoppedLoadRows / 6).ToString(CultureInfo.InvariantCulture);

    public void Dispose()
    {
        _directory.Dispose();
        GC.SuppressFinalize(this);
    }

    /// <summary>
    /// Where a load goes: for a <paramref name="large"/> one a service of its own, so it slows no other test (a load that
    /// reads back conflicts is one: cosmosdb-server answers a ReadMany by scanning the container on its one thread, and
    /// the other tests' requests wait behind it). Disposed by the caller.
    /// </summary>
    protected abstract Task<IAsyncDisposable> StartStoreAsync(bool large);

    /// <summary>The backend's settings for loading <paramref name="flights"/> into a target named after <paramref name="name"/> in <paramref name="store"/>.</summary>
    protected abstract Dictionary<string, string?> StoreSettings(SkewedFlights flights, string name, IAsyncDisposable store);

    /// <summary>How many entities the target holds now.</summary>
    protected abstract Task<long> CountStoredAsync(Dictionary<string, string?> settings, IAsyncDisposable store);

    /// <summary>Fails unless the target holds exactly what <paramref name="flights"/> expects.</summary>
    protected abstract Task AssertStoreEqualsAsync(SkewedFlights flights, Dictionary<string, string?> settings, IAsyncDisposable store);

    /// <summary>
    /// Real data is skewed: a rare key's batch opened early, or a hot partition's batches queued one behind another, used
    /// to hold the checkpoint near the start while every other partition's rows settled, so a crash re-sent nearly
    /// everything. Killed at three points, each restart must re-send only what settled after the last checkpoint was
    /// taken: the stored rows it sends again are bounded by the stored rows less those the checkpoint must know settled
    /// — what the checkpoints before it knew, and every row this run had written by its last progress line before the
    /// checkpoint was taken — give or take what was in flight then. The bound is read from the checkpoint and the
    /// loader's own counts, not from timing, so a busy machine cannot fail it. A checkpoint more than
    /// <see cref="s_lateCheckpoint"/> old at the kill fails the test: the checkpoints stopped.
    /// </summary>
    [Fact]
    public async Task A_skewed_load_killed_at_several_points_re_sends_at_each_restart_only_what_settled_after_the_last_checkpoint()
    {
        var rows = KilledLoadRows;
        // Its own service: this many rows would slow the shared one for every other test.
        await using var store = await StartStoreAsync(large: true);
        var flights = SkewedFlights.Write(_directory, rows);
        var settings = WithOutputs(StoreSettings(flights, "crash", store));
        settings["Loader:CheckpointInterval"] = "00:00:01";
        settings["Loader:ProgressInterval"] = "00:00:00.1"; // the closer the last line before a checkpoint, the tighter the bound
        settings["Loader:LogFormat"] = "Json";
        // Paced to last about ten seconds: on a quiet machine the stand-in took 40% of the rows before the first checkpoint.
        settings["Loader:MaxRowsPerSecond"] = (rows / 10).ToString(CultureInfo.InvariantCulture);

        long settledEarlier = 0;
        foreach (var share in new[] { 0.4, 0.6, 0.8 })
        {
            ProgressLine[] progress;
            await using (var loader = LoaderProcess.Start(settings))
            {
                progress = await WhenWrittenAsync(loader, (long)(rows * share) - settledEarlier);
                // On a quiet machine the stand-in can take this many rows before the first checkpoint (every second).
                await WhenCheckpointedAsync(loader, settings);

                await loader.KillAsync();
            }

            var checkpoint = (await Checkpoints(settings).ReadAsync(Cancellation))!;
            var pending = checkpoint.Pending.Sum(range => range[1] - range[0] + 1);
            var skips = checkpoint.ReadUpTo >= checkpoint.NextRecord ? checkpoint.ReadUpTo - pending : checkpoint.NextRecord - 1;
            var stored = await CountStoredAsync(settings, store);
            // Rows settled at the kill: the entities stored, plus at most every row that repeats an earlier key.
            var resent = Math.Max(0, stored + flights.Data.DuplicateRows - skips);
            var last = progress[^1];
            var age = last.At - checkpoint.UpdatedAt;
            Assert.True(age <= s_lateCheckpoint, $"at the kill at {share:P0} the checkpoint was taken {age.TotalSeconds:0.#} s before the last progress line, though it is taken every second");

            // Rows this run had written when the checkpoint was taken: at least what its last progress line before then
            // said (log times are cut to the millisecond). The records the earlier checkpoints knew settled this run never
            // sent, so the two add up; keys that repeat may make fewer entities of them than rows.
            var writtenBefore = progress.LastOrDefault(line => line.At.AddMilliseconds(1) <= checkpoint.UpdatedAt)?.RowsWritten ?? 0;
            var settledAfter = Math.Max(0, stored + flights.Data.DuplicateRows - settledEarlier - writtenBefore);
            var bound = settledAfter + s_inFlight;
            Measurements.Record(string.Create(CultureInfo.InvariantCulture,
                $"{GetType().Name}: SIGKILL with {stored:N0} of {rows:N0} skewed rows stored: the checkpoint's watermark is record {checkpoint.NextRecord:N0}, it had read to {checkpoint.ReadUpTo:N0} with {pending:N0} rows still in batches; the restart skips {skips:N0} and re-sends at most {resent:N0} stored rows (bound: {settledAfter:N0} stored after the checkpoint, taken {age.TotalSeconds:0.#} s before the last progress line, + {s_inFlight:N0} in flight)"));
            Assert.True(resent <= bound, $"a restart after the kill at {share:P0} would re-send {resent:N0} stored rows, more than the {settledAfter:N0} stored after the checkpoint was taken and the {s_inFlight:N0} that may have been in flight then: rows settled before it are not in it ({skips:N0} records skipped; {settledEarlier:N0} settled by earlier runs and {writtenBefore:N0} written by this one before it)");
            settledEarlier = skips;
        }

        await using (var last = LoaderProcess.Start(settings))
        {
            Assert.Equal(ExitCodes.Success, await last.WaitForExitAsync(s_loadTimeout, Cancellation));
        }

        var report = ReadReport(settings);
        Assert.True(report.GetProperty("reconciled").GetBoolean());
        Assert.Equal(settledEarlier, report.GetProperty("rowsSkipped").GetInt64());
        await AssertStoreEqualsAsync(flights, settings, store);
    }

    /// <summary>
    /// Under Insert an entity that exists is a conflict. A load killed after its last checkpoint had rows land that the
    /// checkpoint does not know of; the restart sends them again and the service refuses each. The loader reads the stored
    /// entities back: the rows it wrote itself are counted already written, not rejected, and the report reconciles.
    /// </summary>
    [Fact]
    public async Task Under_insert_a_killed_load_restarted_counts_the_rows_it_wrote_itself_already_written_and_rejects_none()
    {
        var rows = StoppedLoadRows;
        await using var store = await StartStoreAsync(large: true);
        var flights = SkewedFlights.Write(_directory, rows, repeatKeys: false);
        var settings = WithOutputs(StoreSettings(flights, "insert", store));
        settings["Loader:WriteMode"] = "Insert";
        settings["Loader:MaxRowsPerSecond"] = StoppedLoadPace;
        settings["Loader:CheckpointInterval"] = "00:00:02";
        settings["Loader:ProgressInterval"] = "00:00:00.2";
        settings["Loader:LogFormat"] = "Json";
        await using (var loader = LoaderProcess.Start(settings))
        {
            await WhenWrittenAsync(loader, rows / 3);
            await WhenCheckpointedAsync(loader, settings);

            await loader.KillAsync();
        }

        var checkpoint = (await Checkpoints(settings).ReadAsync(Cancellation))!;
        var pending = checkpoint.Pending.Sum(range => range[1] - range[0] + 1);
        var skips = checkpoint.ReadUpTo >= checkpoint.NextRecord ? checkpoint.ReadUpTo - pending : checkpoint.NextRecord - 1;
        var landedAfter = await CountStoredAsync(settings, store) - skips;
        Assert.True(landedAfter > 0, "no row landed after the last checkpoint: the restart meets none of its own rows");

        await using (var restart = LoaderProcess.Start(settings))
        {
            Assert.Equal(ExitCodes.Success, await restart.WaitForExitAsync(s_loadTimeout, Cancellation));
        }

        var report = ReadReport(settings);
        Assert.Equal(0, report.GetProperty("rowsRejected").GetInt64());
        Assert.True(report.GetProperty("rowsAlreadyWritten").GetInt64() > 0, "the restart met none of the rows the killed run wrote");
        Assert.True(report.GetProperty("reconciled").GetBoolean());
        await AssertStoreEqualsAsync(flights, settings, store);
        Measurements.Record(string.Create(CultureInfo.InvariantCulture,
            $"{GetType().Name}: Insert, SIGKILL with {landedAfter:N0} rows landed after the last checkpoint: the restart counted {report.GetProperty("rowsAlreadyWritten").GetInt64():N0} already written, 0 rejected"));
    }

    [Fact]
    public async Task On_SIGTERM_it_stops_writes_checkpoint_and_report_exits_non_zero_and_a_restart_completes_the_load()
    {
        var rows = StoppedLoadRows;
        await using var store = await StartStoreAsync(large: false);
        var flights = SkewedFlights.Write(_directory, rows);
        var settings = WithOutputs(StoreSettings(flights, "sigterm", store));
        settings["Loader:CheckpointInterval"] = "00:00:00.5";
        settings["Loader:MaxRowsPerSecond"] = StoppedLoadPace;
        settings["Loader:MaxBufferedRows"] = "2000"; // the reader stays close behind the writes, so the stop lands mid-input
        // Everything read is written before the exit unless the grace period runs out first; on a machine shared by
        // many builds the default 15 s was seen to run out in bulk mode, leaving rows in flight unsettled.
        settings["Loader:ShutdownGracePeriod"] = "00:01:00";
        settings["Loader:ProgressInterval"] = "00:00:00.2";
        settings["Loader:LogFormat"] = "Json";

        string stoppedOutput;
        await using (var first = LoaderProcess.Start(settings))
        {
            // Written, not settled: on skewed data the watermark stays low until late in the load, and waiting for it let
            // the load end before the stop. A stop writes everything read, so the checkpoint then settles these rows.
            await WhenWrittenAsync(first, 5_000);
            first.Terminate();
            Assert.Equal(ExitCodes.Stopped, await first.WaitForExitAsync(TimeSpan.FromMinutes(2), Cancellation));
            stoppedOutput = first.Output;
        }

        var stopped = ReadReport(settings);
        Assert.Equal("Stopped", stopped.GetProperty("outcome").GetString());
        Assert.True(stopped.GetProperty("reconciled").GetBoolean());
        var checkpoint = (await Checkpoints(settings).ReadAsync(Cancellation))!;
        Assert.False(checkpoint.Completed);
        Assert.InRange(checkpoint.NextRecord - 1, 5_000, rows - 1);

        await using var restart = LoaderProcess.Start(settings);
        Assert.Equal(ExitCodes.Success, await restart.WaitForExitAsync(s_loadTimeout, Cancellation));

        var skipped = ReadReport(settings).GetProperty("rowsSkipped").GetInt64();
        Assert.True(checkpoint.NextRecord - 1 == skipped, $"the restart skipped {skipped:N0} rows, not the {checkpoint.NextRecord - 1:N0} before the stopped run's watermark: rows it read were left unsettled.{Environment.NewLine}{stoppedOutput}");
        await AssertStoreEqualsAsync(flights, settings, store);
    }

    private Dictionary<string, string?> WithOutputs(Dictionary<string, string?> settings)
    {
        settings["Loader:CheckpointPath"] = _directory.File("checkpoint.json");
        settings["Loader:ReportPath"] = _directory.File("report.json");
        settings["Loader:RejectsPath"] = _directory.File("rejects.csv");
        return settings;
    }

    /// <summary>Waits until this run of the loader has written <paramref name="rows"/> rows by its progress lines, and returns them.</summary>
    private async Task<ProgressLine[]> WhenWrittenAsync(LoaderProcess loader, long rows)
    {
        while (true)
        {
            var progress = ProgressLine.Parse(loader.Output);
            if (progress.Count >= 2 && progress[^1].RowsWritten >= rows)
            {
                return [.. progress];
            }

            Assert.False(loader.HasExited, $"the loader exited before it wrote {rows:N0} rows:{Environment.NewLine}{loader.Output}");
            await Task.Delay(50, Cancellation);
        }
    }

    /// <summary>Waits until the loader has written its first checkpoint.</summary>
    private async Task WhenCheckpointedAsync(LoaderProcess loader, Dictionary<string, string?> settings)
    {
        while (!File.Exists(settings["Loader:CheckpointPath"]))
        {
            Assert.False(loader.HasExited, $"the loader exited before it wrote a checkpoint:{Environment.NewLine}{loader.Output}");
            await Task.Delay(50, Cancellation);
        }
    }

    private static CheckpointStore Checkpoints(Dictionary<string, string?> settings) => CheckpointStore.AtPath(settings["Loader:CheckpointPath"]!);

    private static JsonElement ReadReport(Dictionary<string, string?> settings) =>
        JsonDocument.Parse(File.ReadAllText(settings["Loader:ReportPath"]!)).RootElement.Clone();
}
