using System.Globalization;
using System.Text.Json;
using System.Text.RegularExpressions;
using Loader.Worker.Checkpoints;
using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// Checkpoints and resumption, in-process (and once as a user runs it, killed): a load stopped part way and started
/// again ends with exactly the input in the table. An input changed between the two runs: a record changed under the
/// checkpoint stops the restart with exit 2 (nothing after the change written, the checkpoint left as it was), while a
/// file rewritten with the same records (a copy, a <c>touch</c>) and rows changed beyond the checkpoint resume.
/// </summary>
public sealed partial class ResumeTests(AzuriteFixture azurite) : IDisposable
{
    /// <summary>Rows of the inputs of about 120 bytes a row: a row in the middle lies more than a MiB from either end, where a hash of the first and last MiB cannot see it.</summary>
    private const int PaddedRows = 20_000;

    /// <summary>The line edited in them: record 10,000, 1.2 MB into 2.4 MB.</summary>
    private const int EditedLine = 10_001;

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

    /// <param name="rows">Rows of the input.</param>
    /// <param name="everyNthBad">Every so many rows, one whose n is not a number.</param>
    /// <param name="padding">Characters of a fourth column, text, to make the rows longer.</param>
    private string Input(int rows, int everyNthBad = 0, int padding = 0)
    {
        var csv = padding > 0 ? new CsvText("pk", "rk", "n", "text") : new CsvText("pk", "rk", "n");
        var text = new string('x', padding);
        for (var i = 1; i <= rows; i++)
        {
            var n = everyNthBad > 0 && i % everyNthBad == 0 ? "bad" : i.ToString(CultureInfo.InvariantCulture);
            if (padding > 0)
            {
                csv.Row($"p{i % 25}", $"r{i:D6}", n, text);
            }
            else
            {
                csv.Row($"p{i % 25}", $"r{i:D6}", n);
            }
        }

        return _directory.WriteCsv("input.csv", csv.ToString());
    }

    /// <summary>The settings of a load of <see cref="PaddedRows"/> rows of 120 bytes whose reader stays close behind the writes, so a stop comes mid-input.</summary>
    private Dictionary<string, string?> PaddedSettings(string table)
    {
        var settings = Settings(Input(PaddedRows, padding: 96), table);
        settings["Loader:MaxParallelBatches"] = "4";
        settings["Loader:MaxBufferedRows"] = "200";
        return settings;
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
        Assert.Equal(ReportOutcome.Stopped, stopped.Outcome);
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
        var rejectLines = RejectsFile.Read(settings["Loader:RejectsPath"]!).Rows.Select(reject => reject.Line).ToList();
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

    /// <summary>The case of issue #27: a 3 MB file killed mid-load, one row in the middle edited in place, the load started again.</summary>
    [Fact]
    public async Task A_row_edited_in_the_middle_after_a_kill_with_the_size_kept_stops_the_restart_with_exit_2_naming_the_file_and_its_lines()
    {
        var flights = SkewedFlights.Write(_directory, 60_000);
        var table = AzuriteFixture.UniqueTableName("edited");
        var settings = flights.Settings(azurite.ConnectionString, table);
        settings["Loader:CheckpointPath"] = _directory.File("checkpoint.json");
        settings["Loader:ReportPath"] = _directory.File("report.json");
        settings["Loader:RejectsPath"] = _directory.File("rejects.csv");
        settings["Loader:CheckpointInterval"] = "00:00:00.5";
        settings["Loader:ProgressInterval"] = "00:00:00.2";
        settings["Loader:LogFormat"] = "Json";
        await using (var loader = LoaderProcess.Start(settings))
        {
            await loader.WhenWrittenAsync(25_000, _cancellation);
            await loader.KillAsync();
        }

        var written = await File.ReadAllBytesAsync(settings["Loader:CheckpointPath"]!, _cancellation);
        var checkpoint = (await CheckpointStore.AtPath(settings["Loader:CheckpointPath"]!).ReadAsync(_cancellation))!;
        var record = SettledRecordInTheMiddle(checkpoint, flights);
        var (key, was) = EditInPlace(flights.Path, line: record + 1);
        Assert.Equal(was, (await azurite.ReadTableAsync(table, _cancellation))[key].Properties["tail"]);

        string output;
        await using (var restart = LoaderProcess.Start(settings))
        {
            Assert.Equal(ExitCodes.InvalidConfiguration, await restart.WaitForExitAsync(TimeSpan.FromMinutes(5), _cancellation));
            output = restart.Output;
        }

        var message = JsonDocument.Parse(await File.ReadAllTextAsync(settings["Loader:ReportPath"]!, _cancellation)).RootElement.GetProperty("message").GetString()!;
        Assert.Contains($"Loader:Input '{flights.Path}' has changed since the checkpoint at '{settings["Loader:CheckpointPath"]}' was written", message, StringComparison.Ordinal);
        AssertNamesLine(message, record + 1, "flights.csv");
        Assert.DoesNotContain("Unhandled", output, StringComparison.Ordinal);
        Assert.Equal(was, (await azurite.ReadTableAsync(table, _cancellation))[key].Properties["tail"]);
        Assert.Equal(written, await File.ReadAllBytesAsync(settings["Loader:CheckpointPath"]!, _cancellation));
    }

    [Fact]
    public async Task A_row_edited_below_the_watermark_is_found_while_the_restart_skips_and_nothing_is_written()
    {
        var settings = PaddedSettings(AzuriteFixture.UniqueTableName("below"));
        var first = await RunStoppingAsync(settings, stopAfterRows: 12_000);
        Assert.Equal(ExitCodes.Stopped, first.ExitCode);
        var checkpoint = (await CheckpointStore.AtPath(settings["Loader:CheckpointPath"]!).ReadAsync(_cancellation))!;
        Assert.True(checkpoint.NextRecord > EditedLine, $"the stopped run settled only {checkpoint.NextRecord - 1} records");
        var written = await File.ReadAllBytesAsync(settings["Loader:CheckpointPath"]!, _cancellation);
        EditInPlace(settings["Loader:Input"]!, EditedLine);

        var second = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = second.RequireReport();
        Assert.Equal(ExitCodes.InvalidConfiguration, second.ExitCode);
        AssertNamesLine(report.Message!, EditedLine, "input.csv");
        Assert.Equal(0, report.RowsWritten);
        Assert.Equal(written, await File.ReadAllBytesAsync(settings["Loader:CheckpointPath"]!, _cancellation));
    }

    [Fact]
    public async Task A_row_edited_in_the_window_is_found_by_the_read_stage_which_sends_nothing_read_after_the_last_mark_it_passed_and_keeps_the_checkpoint()
    {
        var table = AzuriteFixture.UniqueTableName("window");
        var settings = PaddedSettings(table);
        Assert.Equal(ExitCodes.Stopped, (await RunStoppingAsync(settings, stopAfterRows: 12_000)).ExitCode);
        var store = CheckpointStore.AtPath(settings["Loader:CheckpointPath"]!);
        var stopped = (await store.ReadAsync(_cancellation))!;
        Assert.True(stopped.ReadUpTo > EditedLine + 1_000, $"the stopped run read up to record {stopped.ReadUpTo}");
        // As a kill leaves it when the first row's batch was still open: every record it read is in the window, record 1
        // pending, and a thousand from the edited one on too (their batches had landed, unanswered): a restart sends those
        // again, but not from a changed input. Its marks far apart (as those before a watermark are), so that more than a
        // chunk of rows is read between the last mark that matches and the first that does not.
        await store.WriteAsync(
            stopped with
            {
                NextRecord = 1,
                Pending = [[1, 1], [EditedLine - 1, EditedLine + 999]],
                Prefix = [.. stopped.Prefix.Where(mark => mark.Record <= 5_000), stopped.Prefix[^1]],
            },
            _cancellation);
        var written = await File.ReadAllBytesAsync(settings["Loader:CheckpointPath"]!, _cancellation);
        var (key, was) = EditInPlace(settings["Loader:Input"]!, EditedLine);

        var second = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = second.RequireReport();
        Assert.Equal(ExitCodes.InvalidConfiguration, second.ExitCode);
        Assert.Contains("has changed since the checkpoint", report.Message, StringComparison.Ordinal);
        AssertNamesLine(report.Message!, EditedLine, "input.csv");
        Assert.Equal(was, (await azurite.ReadTableAsync(table, _cancellation))[key].Properties["n"]);
        Assert.Equal(written, await File.ReadAllBytesAsync(settings["Loader:CheckpointPath"]!, _cancellation));
    }

    [Fact]
    public async Task A_file_touched_and_changed_only_beyond_what_the_checkpoint_read_resumes_and_loads_the_changed_rows()
    {
        var table = AzuriteFixture.UniqueTableName("touched");
        var settings = PaddedSettings(table);
        Assert.Equal(ExitCodes.Stopped, (await RunStoppingAsync(settings, stopAfterRows: 500)).ExitCode);
        var checkpoint = (await CheckpointStore.AtPath(settings["Loader:CheckpointPath"]!).ReadAsync(_cancellation))!;
        Assert.True(checkpoint.ReadUpTo < EditedLine, $"the stopped run read up to record {checkpoint.ReadUpTo}");
        var (key, _) = EditInPlace(settings["Loader:Input"]!, EditedLine);
        File.SetLastWriteTimeUtc(settings["Loader:Input"]!, DateTime.UtcNow.AddHours(1));

        var second = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.Success, second.ExitCode);
        Assert.True(second.RequireReport().Reconciled);
        Assert.Contains(second.Logs.Logs, log => log.Message.Contains("Input part 'input.csv' (written", StringComparison.Ordinal) && log.Message.Contains("has been rewritten since the checkpoint", StringComparison.Ordinal));
        var stored = await azurite.ReadTableAsync(table, _cancellation);
        Assert.Equal(PaddedRows, stored.Count);
        Assert.Equal(Edited(EditedLine - 1), stored[key].Properties["n"]);
    }

    /// <summary>A record the killed run settled, about halfway through those it had read, whose key no later row repeats.</summary>
    private static long SettledRecordInTheMiddle(Checkpoint checkpoint, SkewedFlights flights)
    {
        var lines = File.ReadAllLines(flights.Path);
        for (var record = Math.Max(checkpoint.NextRecord, checkpoint.ReadUpTo / 2); record <= checkpoint.ReadUpTo; record++)
        {
            var pending = checkpoint.Pending.Any(range => range[0] <= record && record <= range[1]);
            var cells = lines[record].Split(',');
            var key = (cells[6], $"{cells[0]}-{cells[1]}-{cells[2]}-{cells[3]}-{cells[4]}");
            if (!pending && flights.Expected[key].Tail == cells[11] && !cells[11].SequenceEqual(cells[11].Reverse()))
            {
                return record;
            }
        }

        throw new InvalidOperationException($"no settled record between {checkpoint.ReadUpTo / 2} and {checkpoint.ReadUpTo}");
    }

    /// <summary>
    /// Changes one value of <paramref name="line"/> in place, as an editor would, keeping the file's size: a flight's tail
    /// number (column 12) or column n, its characters reversed. Returns the row's key and the value it had.
    /// </summary>
    private static ((string, string) Key, object Was) EditInPlace(string path, long line)
    {
        var size = new FileInfo(path).Length;
        var lines = File.ReadAllLines(path);
        var cells = lines[line - 1].Split(',');
        var flight = cells.Length > 4;
        var column = flight ? 11 : 2;
        var was = cells[column];
        cells[column] = new string([.. was.Reverse()]);
        Assert.NotEqual(was, cells[column]);
        lines[line - 1] = string.Join(',', cells);
        File.WriteAllText(path, string.Join('\n', lines) + "\n");
        Assert.Equal(size, new FileInfo(path).Length);
        return flight ? ((cells[6], $"{cells[0]}-{cells[1]}-{cells[2]}-{cells[3]}-{cells[4]}"), was) : ((cells[0], cells[1]), was);
    }

    /// <summary>Column n of record <paramref name="record"/> once edited: its digits reversed, the same length.</summary>
    private static string Edited(int record) => new([.. record.ToString(CultureInfo.InvariantCulture).Reverse()]);

    /// <summary>Fails unless <paramref name="message"/> names a range of lines of <paramref name="part"/> that holds <paramref name="line"/>.</summary>
    private static void AssertNamesLine(string message, long line, string part)
    {
        var lines = LinesNamed().Match(message);
        Assert.True(lines.Success, message);
        Assert.Equal(part, lines.Groups["part"].Value);
        Assert.InRange(line, Number(lines.Groups["from"].Value), Number(lines.Groups["to"].Value));
    }

    private static long Number(string text) => long.Parse(text, NumberStyles.AllowThousands, CultureInfo.InvariantCulture);

    [GeneratedRegex(@"lines (?<from>[\d,]+) to (?<to>[\d,]+) of '(?<part>[^']+)'")]
    private static partial Regex LinesNamed();
}
