using System.Diagnostics;
using System.Globalization;
using System.IO.Compression;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using Loader.Worker.Inputs;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// Plain mistakes with the input, as a user makes them: a file the loader may not read, a blob endpoint that does not
/// answer, a folder, a zip, a plain file named .gz, a pipe or standard input with a checkpoint. Each is one line naming the
/// input and the reason, with its exit code and the report written; none is a stack trace, exit 10, or a hang.
/// </summary>
public sealed class InputMistakeTests(AzuriteFixture azurite) : IDisposable
{
    private const int Rows = 500;

    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private static string CsvOf(int rows) =>
        new StringBuilder("pk,rk,n\n").AppendJoin("", Enumerable.Range(1, rows).Select(i => string.Create(CultureInfo.InvariantCulture, $"p{i % 5},r{i:D5},{i}\n"))).ToString();

    private Dictionary<string, string?> Settings(string input, string table) => new()
    {
        ["Loader:Input"] = input,
        ["Loader:Tables:ConnectionString"] = azurite.ConnectionString,
        ["Loader:Tables:Table"] = table,
        ["Loader:PartitionKey"] = "{pk}",
        ["Loader:RowKey"] = "{rk}",
        ["Loader:Columns:n"] = "Int32",
        ["Loader:ReportPath"] = _directory.File($"{table}-report.json"),
    };

    /// <summary>The report the load wrote where <c>Loader:ReportPath</c> says, as a user opens it.</summary>
    private static (int ExitCode, string Outcome, string Message) ReportAt(string path)
    {
        Assert.True(File.Exists(path), $"no report at {path}");
        var report = JsonDocument.Parse(File.ReadAllText(path)).RootElement;
        return (report.GetProperty("exitCode").GetInt32(), report.GetProperty("outcome").GetString()!, report.GetProperty("message").GetString()!);
    }

    private async Task AssertNothingLoadedAsync(string table)
    {
        var notCreated = await Assert.ThrowsAsync<Azure.RequestFailedException>(async () => await azurite.ReadTableAsync(table, _cancellation));
        Assert.Equal(404, notCreated.Status);
    }

    /// <summary>A file this process may not read: one with no permissions, or, for root (who reads any file), a write-only file of /proc.</summary>
    private string UnreadableFile()
    {
        Assert.SkipWhen(OperatingSystem.IsWindows(), "file modes are a Unix thing");
        var path = _directory.WriteCsv("secret.csv", CsvOf(10));
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(path, UnixFileMode.None);
        }

        try
        {
            using (File.OpenRead(path))
            {
            }
        }
        catch (UnauthorizedAccessException)
        {
            return path;
        }

        const string WriteOnly = "/proc/sys/vm/compact_memory"; // mode 0200: refused even to root
        Assert.SkipUnless(File.Exists(WriteOnly), $"this user reads any file, and there is no {WriteOnly} to stand for one it may not read");
        return WriteOnly;
    }

    /// <summary>A local port nothing listens on: a connection there is refused at once.</summary>
    private static int ClosedPort()
    {
        var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        return port;
    }

    [Fact]
    public async Task An_input_file_the_loader_may_not_read_is_exit_3_with_one_line_naming_it_and_the_report_is_written()
    {
        var input = UnreadableFile();
        var table = AzuriteFixture.UniqueTableName("noread");
        var settings = Settings(input, table);

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var expected = $"Loader:Input '{input}' cannot be read: permission denied (the loader runs as user '{Environment.UserName}').";
        Assert.Equal(ExitCodes.Unavailable, run.ExitCode);
        Assert.Equal((ExitCodes.Unavailable, "Failed", expected), ReportAt(settings["Loader:ReportPath"]!));
        Assert.Contains(run.Logs.Logs, log => log.Message == expected);
        Assert.DoesNotContain("UnauthorizedAccessException", run.Logs.AllText, StringComparison.Ordinal);
        await AssertNothingLoadedAsync(table);
    }

    [Fact]
    public async Task A_blob_input_whose_endpoint_does_not_answer_is_exit_3_naming_it_and_the_report_is_written()
    {
        var endpoint = $"http://127.0.0.1:{ClosedPort()}/devstoreaccount1";
        var input = $"{endpoint}/input/flights.csv";
        var table = AzuriteFixture.UniqueTableName("noanswer");
        var settings = Settings(input, table);
        settings["Loader:Blob:ConnectionString"] = $"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={AzuriteProcess.DevelopmentAccountKey};BlobEndpoint={endpoint}";

        var clock = Stopwatch.StartNew();
        var run = await LoaderRunner.RunAsync(settings, _cancellation);
        clock.Stop();

        Assert.Equal(ExitCodes.Unavailable, run.ExitCode);
        var (exitCode, outcome, message) = ReportAt(settings["Loader:ReportPath"]!);
        Assert.Equal((ExitCodes.Unavailable, "Failed"), (exitCode, outcome));
        Assert.StartsWith($"Loader:Input: cannot reach '{input}': no answer from {endpoint} after 3 tries (", message, StringComparison.Ordinal);
        Assert.DoesNotContain("AggregateException", run.Logs.AllText, StringComparison.Ordinal);
        await AssertNothingLoadedAsync(table);
        Measurements.Record(string.Create(CultureInfo.InvariantCulture, $"a blob input at a closed port: exit {run.ExitCode} after {clock.Elapsed.TotalSeconds:N1} s ({message})"));
    }

    [Fact]
    public async Task Check_of_a_blob_input_whose_endpoint_does_not_answer_fails_that_check_and_exits_3()
    {
        var endpoint = $"http://127.0.0.1:{ClosedPort()}/devstoreaccount1";
        var table = AzuriteFixture.UniqueTableName("checknoanswer");
        var settings = Settings($"{endpoint}/input/flights.csv", table);
        settings["Loader:Blob:ConnectionString"] = $"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={AzuriteProcess.DevelopmentAccountKey};BlobEndpoint={endpoint}";
        settings["Loader:Check"] = "true";
        settings["Loader:LogFormat"] = "Text";

        await using var loader = LoaderProcess.Start(settings);
        var exitCode = await loader.WaitForExitAsync(TimeSpan.FromMinutes(1), _cancellation);

        Assert.True(exitCode == ExitCodes.Unavailable, $"exit {exitCode}:{Environment.NewLine}{loader.Output}");
        Assert.Contains($"FAIL Loader:Input {endpoint}/input/flights.csv: Loader:Input: cannot reach", loader.Output, StringComparison.Ordinal);
        Assert.Contains("Not ready: 1 of 4 checks failed.", loader.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("BackgroundService failed", loader.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_folder_as_input_is_said_to_be_a_folder_and_what_would_read_its_files()
    {
        var folder = Path.Combine(_directory.Path, "exports");
        Directory.CreateDirectory(folder);
        var table = AzuriteFixture.UniqueTableName("folder");
        var settings = Settings(folder, table);

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.InvalidConfiguration, run.ExitCode);
        var (_, _, message) = ReportAt(settings["Loader:ReportPath"]!);
        Assert.StartsWith($"Loader:Input '{folder}' is a folder. The loader reads one file, or every blob under a blob prefix", message, StringComparison.Ordinal);
        await AssertNothingLoadedAsync(table);
    }

    [Fact]
    public async Task A_zip_archive_is_refused_naming_the_formats_the_loader_reads()
    {
        var input = _directory.File("flights.zip");
        using (var zip = ZipFile.Open(input, ZipArchiveMode.Create))
        {
            using var entry = zip.CreateEntry("flights.csv").Open();
            entry.Write(Encoding.UTF8.GetBytes(CsvOf(Rows)));
        }

        var table = AzuriteFixture.UniqueTableName("zip");
        var settings = Settings(input, table);

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.InvalidConfiguration, run.ExitCode);
        Assert.Equal(
            "Loader:Input: 'flights.zip' is a zip archive, which the loader does not open. The loader reads CSV text, plain or compressed as one stream: "
            + "gzip (.gz), Zstandard (.zst), Brotli (.br) or zlib/deflate (.zz, .deflate); see Loader:Csv:Compression. Take the CSV out of the archive and load that.",
            ReportAt(settings["Loader:ReportPath"]!).Message);
        await AssertNothingLoadedAsync(table);
    }

    [Fact]
    public async Task A_plain_csv_named_gz_is_said_not_to_be_gzip()
    {
        var input = _directory.WriteCsv("flights.csv.gz", CsvOf(Rows));
        var table = AzuriteFixture.UniqueTableName("notgz");
        var settings = Settings(input, table);

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.InvalidConfiguration, run.ExitCode);
        Assert.StartsWith(
            "Loader:Input: 'flights.csv.gz' is not gzip: it does not start with gzip's signature (1F 8B); it starts with 'pk,rk,n', which reads as plain text.",
            ReportAt(settings["Loader:ReportPath"]!).Message,
            StringComparison.Ordinal);
        await AssertNothingLoadedAsync(table);
    }

    [Fact]
    public async Task A_named_pipe_loads_without_a_checkpoint_and_with_one_is_refused_at_start_saying_why()
    {
        var fifo = await NamedPipe.CreateAsync(_directory.File("flights.fifo"), _cancellation);

        var loaded = AzuriteFixture.UniqueTableName("fifo");
        var plain = await WithWriterAsync(fifo, Settings(fifo, loaded));
        var refused = AzuriteFixture.UniqueTableName("fifocp");
        var withCheckpoint = Settings(fifo, refused);
        withCheckpoint["Loader:CheckpointPath"] = _directory.File("checkpoint.json");
        var checkpointed = await WithWriterAsync(fifo, withCheckpoint);

        Assert.Equal(ExitCodes.Success, plain.ExitCode);
        Assert.Equal(Rows, (await azurite.ReadTableAsync(loaded, _cancellation)).Count);
        Assert.Equal(ExitCodes.InvalidConfiguration, checkpointed.ExitCode);
        Assert.Equal(
            $"Loader:Input '{fifo}' is a named pipe, which can be read only once, and Loader:CheckpointPath is set: a load that keeps a checkpoint resumes by reading its input again from the start. "
            + "Write the input to a file and load that, or load it without a checkpoint.",
            ReportAt(withCheckpoint["Loader:ReportPath"]!).Message);
        Assert.False(File.Exists(withCheckpoint["Loader:CheckpointPath"]));
        await AssertNothingLoadedAsync(refused);
    }

    /// <summary>Runs a load of the named pipe <paramref name="fifo"/> while another thread writes the rows into it, as <c>cat flights.csv &gt; fifo</c> would.</summary>
    private async Task<LoaderRun> WithWriterAsync(string fifo, Dictionary<string, string?> settings)
    {
        var writer = Task.Run(() =>
        {
            try
            {
                // Opening a pipe to write waits for its reader.
                using var pipe = new FileStream(fifo, FileMode.Open, FileAccess.Write);
                pipe.Write(Encoding.UTF8.GetBytes(CsvOf(Rows)));
            }
            catch (IOException)
            {
                // The loader closed the pipe without reading it all: it refused it.
            }
        }, CancellationToken.None);

        try
        {
            // A load that hangs on the pipe fails here rather than holding the run.
            return await LoaderRunner.RunAsync(settings, _cancellation).WaitAsync(TimeSpan.FromMinutes(2), _cancellation);
        }
        finally
        {
            if (!writer.IsCompleted)
            {
                // The loader never opened the pipe: open it to read, so the writer's open returns.
                using (new FileStream(fifo, FileMode.Open, FileAccess.Read))
                {
                }
            }

            await writer;
        }
    }

    [Fact]
    public async Task Standard_input_loads_plain_or_compressed_without_a_checkpoint_and_with_one_is_refused_at_start_saying_why()
    {
        var csv = Encoding.UTF8.GetBytes(CsvOf(Rows));
        var plainTable = AzuriteFixture.UniqueTableName("stdin");
        var gzipTable = AzuriteFixture.UniqueTableName("stdingz");
        var refusedTable = AzuriteFixture.UniqueTableName("stdincp");
        string[] Arguments(string table) =>
        [
            "--input", "-", "--table", table, "--partition-key", "{pk}", "--row-key", "{rk}", "--Loader:Columns:n=Int32",
            "--Loader:Tables:ConnectionString=" + azurite.ConnectionString, "--Loader:LogFormat=Text",
        ];

        await using var plain = LoaderProcess.StartWithStandardInput(csv, Arguments(plainTable));
        var plainExit = await plain.WaitForExitAsync(TimeSpan.FromMinutes(1), _cancellation);
        await using var gzip = LoaderProcess.StartWithStandardInput(Compressed.Bytes(InputCompression.Gzip, csv), [.. Arguments(gzipTable), "--compression", "Gzip"]);
        var gzipExit = await gzip.WaitForExitAsync(TimeSpan.FromMinutes(1), _cancellation);
        await using var refused = LoaderProcess.StartWithStandardInput(csv, [.. Arguments(refusedTable), "--checkpoint", _directory.File("checkpoint.json")]);
        var refusedExit = await refused.WaitForExitAsync(TimeSpan.FromMinutes(1), _cancellation);

        Assert.True(plainExit == ExitCodes.Success, plain.Output);
        Assert.Equal(Rows, (await azurite.ReadTableAsync(plainTable, _cancellation)).Count);
        Assert.True(gzipExit == ExitCodes.Success, gzip.Output);
        Assert.Equal(Rows, (await azurite.ReadTableAsync(gzipTable, _cancellation)).Count);
        Assert.True(refusedExit == ExitCodes.InvalidConfiguration, refused.Output);
        Assert.Contains("Loader:Input '-' is standard input, which can be read only once, and Loader:CheckpointPath is set", refused.Output, StringComparison.Ordinal);
        await AssertNothingLoadedAsync(refusedTable);
    }
}
