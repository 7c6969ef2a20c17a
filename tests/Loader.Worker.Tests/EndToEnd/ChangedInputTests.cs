using System.Globalization;
using System.Text.Json;
using System.Text.RegularExpressions;
using Loader.Worker.Checkpoints;
using Loader.Worker.Hosting;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// An input changed between a load that stopped and its restart with the same checkpoint. The checkpoint fingerprints
/// the records it settled; the restart checks them as it reads past them: a record changed under the checkpoint stops
/// it with exit 2 (before anything after the change is written, the checkpoint left as it was), while a file rewritten
/// with the same records (a copy, a <c>touch</c>) and rows changed beyond the checkpoint resume.
/// </summary>
public sealed partial class ChangedInputTests(AzuriteFixture azurite) : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private const int Rows = 20_000;

    /// <summary>The line edited: record 10,000, 1.2 MB into a 2.4 MB input.</summary>
    private const int EditedLine = 10_001;

    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

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
            while (ProgressLine.Parse(loader.Output) is var progress && (progress.Count == 0 || progress[^1].RowsWritten < 25_000))
            {
                Assert.False(loader.HasExited, $"the loader exited before it wrote 25,000 rows:{Environment.NewLine}{loader.Output}");
                await Task.Delay(50, _cancellation);
            }

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
        var lines = LinesNamed().Match(message);
        Assert.True(lines.Success, message);
        Assert.Equal("flights.csv", lines.Groups["part"].Value);
        Assert.InRange(record + 1, Number(lines.Groups["from"].Value), Number(lines.Groups["to"].Value));
        Assert.DoesNotContain("Unhandled", output, StringComparison.Ordinal);
        Assert.Equal(was, (await azurite.ReadTableAsync(table, _cancellation))[key].Properties["tail"]);
        Assert.Equal(written, await File.ReadAllBytesAsync(settings["Loader:CheckpointPath"]!, _cancellation));
    }

    [Fact]
    public async Task A_row_edited_below_the_watermark_is_found_while_the_restart_skips_and_nothing_is_written()
    {
        var settings = Settings(Input(Rows), AzuriteFixture.UniqueTableName("below"));
        var first = await RunStoppingAsync(settings, stopAfterRows: 12_000);
        Assert.Equal(ExitCodes.Stopped, first.ExitCode);
        var checkpoint = (await CheckpointStore.AtPath(settings["Loader:CheckpointPath"]!).ReadAsync(_cancellation))!;
        Assert.True(checkpoint.NextRecord > EditedLine, $"the stopped run settled only {checkpoint.NextRecord - 1} records");
        var written = await File.ReadAllBytesAsync(settings["Loader:CheckpointPath"]!, _cancellation);
        EditInPlace(settings["Loader:Input"]!, EditedLine);

        var second = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = second.RequireReport();
        Assert.Equal(ExitCodes.InvalidConfiguration, second.ExitCode);
        var lines = LinesNamed().Match(report.Message!);
        Assert.True(lines.Success, report.Message);
        Assert.InRange(EditedLine, Number(lines.Groups["from"].Value), Number(lines.Groups["to"].Value));
        Assert.Equal(0, report.RowsWritten);
        Assert.Equal(written, await File.ReadAllBytesAsync(settings["Loader:CheckpointPath"]!, _cancellation));
    }

    [Fact]
    public async Task A_row_edited_in_the_window_is_found_by_the_read_stage_which_sends_nothing_read_after_the_last_mark_it_passed_and_keeps_the_checkpoint()
    {
        var table = AzuriteFixture.UniqueTableName("window");
        var settings = Settings(Input(Rows), table);
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
        var lines = LinesNamed().Match(report.Message!);
        Assert.True(lines.Success, report.Message);
        Assert.InRange(EditedLine, Number(lines.Groups["from"].Value), Number(lines.Groups["to"].Value));
        Assert.Equal(was, (await azurite.ReadTableAsync(table, _cancellation))[key].Properties["n"]);
        Assert.Equal(written, await File.ReadAllBytesAsync(settings["Loader:CheckpointPath"]!, _cancellation));
    }

    [Fact]
    public async Task A_file_touched_and_changed_only_beyond_what_the_checkpoint_read_resumes_and_loads_the_changed_rows()
    {
        var table = AzuriteFixture.UniqueTableName("touched");
        var settings = Settings(Input(Rows), table);
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
        Assert.Equal(Rows, stored.Count);
        Assert.Equal(Edited(EditedLine - 1), stored[key].Properties["n"]);
    }

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
        ["Loader:MaxParallelBatches"] = "4",
        ["Loader:MaxBufferedRows"] = "200", // keeps the reader close behind the writes, so the stop comes mid-input
    };

    /// <summary>Rows of about 120 bytes: a row in the middle lies more than a MiB from either end, where a hash of the first and last MiB cannot see it.</summary>
    private string Input(int rows)
    {
        var csv = new CsvText("pk", "rk", "n", "text");
        var text = new string('x', 96);
        for (var i = 1; i <= rows; i++)
        {
            csv.Row($"p{i % 25}", $"r{i:D6}", i.ToString("D6", CultureInfo.InvariantCulture), text);
        }

        return _directory.WriteCsv("input.csv", csv.ToString());
    }

    /// <summary>Column n of record <paramref name="record"/> once edited: its digits reversed, the same length.</summary>
    private static string Edited(int record) => new([.. record.ToString("D6", CultureInfo.InvariantCulture).Reverse()]);

    /// <summary>Runs the loader and asks it to stop (as SIGTERM does) once it has written <paramref name="stopAfterRows"/> rows.</summary>
    private async Task<LoaderRun> RunStoppingAsync(Dictionary<string, string?> settings, long stopAfterRows)
    {
        using var stop = new CancellationTokenSource();
        var load = LoaderRunner.Start(settings, stop.Token);
        await load.WhenWrittenAsync(stopAfterRows, _cancellation);
        await stop.CancelAsync();
        return await load.Completion;
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

    private static long Number(string text) => long.Parse(text, NumberStyles.AllowThousands, CultureInfo.InvariantCulture);

    [GeneratedRegex(@"lines (?<from>[\d,]+) to (?<to>[\d,]+) of '(?<part>[^']+)'")]
    private static partial Regex LinesNamed();
}
