using System.Globalization;
using System.Text;
using System.Text.Json;
using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;
using Loader.Worker.Tests.Infrastructure;
using Loader.Worker.Tests.Storage.Blobs;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// Outputs that cannot be written must not be found out at the end of a long load: each is proven writable before the
/// first row is read (or its container created), checkpoints that stop landing stop the load, and a report with
/// nowhere to go is never a silent success. On Azurite's Blob service.
/// </summary>
public sealed class OutputPreflightTests(BlobAzuriteFixture azurite) : IClassFixture<BlobAzuriteFixture>, IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string Url(string container, string path, string? sas = null) =>
        $"{azurite.Azurite.BlobEndpoint}/{container}/{path}" + (sas is null ? "" : "?" + sas);

    private static string NewContainerName() => $"out{Guid.NewGuid():N}"[..20];

    private Dictionary<string, string?> Settings(int rows, string table) => new()
    {
        ["Loader:Input"] = Input(rows),
        ["Loader:Blob:ConnectionString"] = azurite.Azurite.ConnectionString,
        ["Loader:Tables:ConnectionString"] = azurite.Azurite.ConnectionString,
        ["Loader:Tables:Table"] = table,
        ["Loader:PartitionKey"] = "{pk}",
        ["Loader:RowKey"] = "{rk}",
    };

    private string Input(int rows)
    {
        var text = new StringBuilder("pk,rk,note\n");
        for (var i = 1; i <= rows; i++)
        {
            text.Append(CultureInfo.InvariantCulture, $"p{i % 13},r{i:D7},row {i}\n");
        }

        return _directory.WriteCsv($"input-{rows}.csv", text.ToString());
    }

    private async Task AssertNothingLoadedAsync(string table) =>
        Assert.Equal(404, (await Assert.ThrowsAsync<Azure.RequestFailedException>(async () => await AzuriteFixture.ReadTableAsync(azurite.Azurite.ConnectionString, table, _cancellation))).Status);

    [Fact]
    public async Task Outputs_in_a_container_that_does_not_exist_get_it_created_before_the_load()
    {
        var container = NewContainerName();
        var table = AzuriteFixture.UniqueTableName("precreate");
        var settings = Settings(300, table);
        settings["Loader:ReportPath"] = Url(container, "runs/report.json");
        settings["Loader:CheckpointPath"] = Url(container, "runs/checkpoint.json");
        settings["Loader:RejectsPath"] = Url(container, "runs/rejects.csv");

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Contains($"container '{container}' created", run.Logs.AllText, StringComparison.Ordinal);
        var blobs = azurite.Client.GetBlobContainerClient(container);
        Assert.True((await blobs.GetBlobClient("runs/report.json").ExistsAsync(_cancellation)).Value);
        Assert.True((await blobs.GetBlobClient("runs/checkpoint.json").ExistsAsync(_cancellation)).Value);
        var names = new List<string>();
        await foreach (var blob in blobs.GetBlobsAsync(cancellationToken: _cancellation))
        {
            names.Add(blob.Name);
        }

        Assert.DoesNotContain(names, name => name.Contains(".probe-", StringComparison.Ordinal)); // the probes were deleted
    }

    [Fact]
    public async Task A_signature_that_may_only_read_the_report_container_stops_the_load_at_start_naming_the_setting()
    {
        var container = await azurite.CreateContainerAsync(_cancellation);
        var readOnly = AccountSas.ReadAndListOnAzurite();
        var table = AzuriteFixture.UniqueTableName("sasro");
        var settings = Settings(300, table);
        settings["Loader:ReportPath"] = Url(container, "report.json", readOnly);

        await using var loader = LoaderProcess.Start(settings);
        var exitCode = await loader.WaitForExitAsync(TimeSpan.FromMinutes(1), _cancellation);

        Assert.True(exitCode == ExitCodes.Unavailable, $"exit {exitCode}:{Environment.NewLine}{loader.Output}");
        Assert.Contains($"Loader:ReportPath: cannot write '{Url(container, "report.json")}': the credential may not write in container '{container}' (403", loader.Output, StringComparison.Ordinal);
        var signature = readOnly.Split('&').Single(parameter => parameter.StartsWith("sig=", StringComparison.Ordinal))["sig=".Length..];
        Assert.DoesNotContain(signature, loader.Output, StringComparison.Ordinal); // the report printed for want of a place shows sig=(removed)
        Assert.DoesNotContain(Uri.UnescapeDataString(signature), loader.Output, StringComparison.Ordinal);
        await AssertNothingLoadedAsync(table);
    }

    [Fact]
    public async Task A_local_folder_that_cannot_be_written_stops_the_load_at_start()
    {
        // /proc refuses new files to every user, root included (a chmod would not stop root).
        var table = AzuriteFixture.UniqueTableName("rofolder");
        var settings = Settings(300, table);
        settings["Loader:RejectsPath"] = "/proc/loader-test/rejects.csv";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Unavailable, run.ExitCode);
        Assert.StartsWith("Loader:RejectsPath: cannot write '/proc/loader-test/rejects.csv': cannot write in '/proc/loader-test'", report.Message, StringComparison.Ordinal);
        Assert.Equal(0, report.RowsRead);
        await AssertNothingLoadedAsync(table);
    }

    [Fact]
    public async Task When_checkpoints_stop_landing_mid_load_the_load_stops_with_its_own_exit_code_and_a_restart_can_resume()
    {
        var container = await azurite.CreateContainerAsync(_cancellation);
        var table = AzuriteFixture.UniqueTableName("ckptlost");
        var settings = Settings(60_000, table);
        settings["Loader:CheckpointPath"] = Url(container, "checkpoint.json");
        settings["Loader:CheckpointInterval"] = "00:00:01";
        settings["Loader:MaxRowsPerSecond"] = "2000"; // about 30 s in all: the checkpoints are lost long before the end

        using var stop = new CancellationTokenSource();
        var load = LoaderRunner.Start(settings, stop.Token);
        await load.WhenWrittenAsync(3_000, _cancellation);
        await azurite.Client.DeleteBlobContainerAsync(container, cancellationToken: _cancellation);
        var run = await load.Completion.WaitAsync(TimeSpan.FromMinutes(3), _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.OutputFailed, run.ExitCode);
        Assert.Equal(ReportOutcome.CheckpointLost, report.Outcome);
        Assert.StartsWith("no checkpoint could be written for 10 s (", report.Message, StringComparison.Ordinal);
        Assert.True(report.Reconciled);
        Assert.InRange(report.RowsRead, 3_000, 59_999);
    }

    [Fact]
    public async Task A_report_that_cannot_be_written_at_the_end_is_printed_instead_and_the_exit_code_is_not_zero()
    {
        var container = await azurite.CreateContainerAsync(_cancellation);
        var table = AzuriteFixture.UniqueTableName("lostreport");
        var settings = Settings(6_000, table);
        settings["Loader:ReportPath"] = Url(container, "report.json");
        settings["Loader:MaxRowsPerSecond"] = "2000";

        using var stop = new CancellationTokenSource();
        var load = LoaderRunner.Start(settings, stop.Token);
        await load.WhenWrittenAsync(500, _cancellation);
        await azurite.Client.DeleteBlobContainerAsync(container, cancellationToken: _cancellation);
        var run = await load.Completion.WaitAsync(TimeSpan.FromMinutes(2), _cancellation);

        Assert.Equal(ExitCodes.OutputFailed, run.ExitCode);
        var printed = JsonDocument.Parse(run.Summary[..(run.Summary.LastIndexOf('}') + 1)]).RootElement;
        Assert.Equal(6_000, printed.GetProperty("rowsWritten").GetInt64());
        Assert.Equal(ExitCodes.OutputFailed, printed.GetProperty("exitCode").GetInt32());
        Assert.StartsWith($"the report could not be written to {Url(container, "report.json")}", printed.GetProperty("message").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Check_says_every_thing_a_load_needs_is_ready_and_loads_nothing()
    {
        var container = NewContainerName();
        var table = AzuriteFixture.UniqueTableName("checkok");
        var settings = Settings(50, table);
        settings["Loader:ReportPath"] = Url(container, "report.json");
        settings["Loader:Check"] = "true";
        settings["Loader:LogFormat"] = "Text";

        await using var loader = LoaderProcess.Start(settings);
        var exitCode = await loader.WaitForExitAsync(TimeSpan.FromMinutes(1), _cancellation);

        Assert.True(exitCode == ExitCodes.Success, loader.Output);
        Assert.Contains($"OK   Loader:ReportPath {Url(container, "report.json")}: writable (container '{container}' created)", loader.Output, StringComparison.Ordinal);
        Assert.Contains($"OK   Loader:HtmlReportPath {Url(container, "report.html")}: writable", loader.Output, StringComparison.Ordinal); // beside the JSON report
        Assert.Contains("OK   Loader:Input ", loader.Output, StringComparison.Ordinal);
        Assert.Contains($"OK   Loader:Backend Tables table '{table}': reachable, credentials accepted, target ready; may write: an entity written and deleted again in partition 'loader-check'", loader.Output, StringComparison.Ordinal);
        Assert.Contains("Ready to load: 4 checks passed", loader.Output, StringComparison.Ordinal);
        Assert.Empty(await AzuriteFixture.ReadTableAsync(azurite.Azurite.ConnectionString, table, _cancellation)); // created, probed, empty
        Assert.False((await azurite.Client.GetBlobContainerClient(container).GetBlobClient("report.json").ExistsAsync(_cancellation)).Value);
    }

    [Fact]
    public async Task Check_lists_every_problem_and_exits_with_the_code_of_the_worst()
    {
        var container = await azurite.CreateContainerAsync(_cancellation);
        var readOnly = AccountSas.ReadAndListOnAzurite();
        var table = AzuriteFixture.UniqueTableName("checkbad");
        var settings = Settings(50, table);
        settings["Loader:ReportPath"] = Url(container, "report.json", readOnly);
        settings["Loader:Columns:missing"] = "Int32"; // the header has no such column
        settings["Loader:Check"] = "true";
        settings["Loader:LogFormat"] = "Text";

        await using var loader = LoaderProcess.Start(settings);
        var exitCode = await loader.WaitForExitAsync(TimeSpan.FromMinutes(1), _cancellation);

        Assert.True(exitCode == ExitCodes.InvalidConfiguration, loader.Output);
        Assert.Contains("FAIL Loader:ReportPath", loader.Output, StringComparison.Ordinal);
        Assert.Contains("FAIL Loader:HtmlReportPath", loader.Output, StringComparison.Ordinal); // beside the JSON report, with the same read-only signature
        Assert.Contains("FAIL Loader:Input", loader.Output, StringComparison.Ordinal);
        Assert.Contains("Loader:Columns:missing gives a type to column 'missing', which the header does not have", loader.Output, StringComparison.Ordinal);
        Assert.Contains("OK   Loader:Backend", loader.Output, StringComparison.Ordinal);
        Assert.Contains("Not ready: 3 of 4 checks failed.", loader.Output, StringComparison.Ordinal);
    }

    /// <summary>What a folder holds, and when it last changed: a probe written and deleted again changes the time.</summary>
    private static string Snapshot(string folder) =>
        string.Join(", ", Directory.GetFileSystemEntries(folder).Select(Path.GetFileName).Order(StringComparer.Ordinal))
        + $"; changed {Directory.GetLastWriteTimeUtc(folder):O}";

    private async Task<List<string>> BlobNamesAsync(string container)
    {
        var names = new List<string>();
        await foreach (var blob in azurite.Client.GetBlobContainerClient(container).GetBlobsAsync(cancellationToken: _cancellation))
        {
            names.Add(blob.Name);
        }

        return names;
    }

    [Theory]
    [InlineData("Loader:ReportPath")]
    [InlineData("Loader:RejectsPath")]
    [InlineData("Loader:HtmlReportPath")]
    [InlineData("Loader:CheckpointPath")]
    public async Task An_output_given_the_input_s_own_path_stops_the_load_at_start_and_the_input_is_untouched(string key)
    {
        var table = AzuriteFixture.UniqueTableName("overinput");
        var settings = Settings(300, table);
        var input = settings["Loader:Input"]!;
        settings[key] = input;
        var bytes = await File.ReadAllBytesAsync(input, _cancellation);
        var before = Snapshot(_directory.Path);

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.InvalidConfiguration, run.ExitCode);
        Assert.Contains($"{key}: cannot write '{input}': it is the input, Loader:Input '{input}': writing there would destroy it.", run.Summary, StringComparison.Ordinal);
        Assert.Contains("Nothing was loaded or written", run.Summary, StringComparison.Ordinal);
        Assert.Equal(bytes, await File.ReadAllBytesAsync(input, _cancellation));
        Assert.Equal(before, Snapshot(_directory.Path)); // no report, rejects, checkpoint or probe beside it
        await AssertNothingLoadedAsync(table);
    }

    /// <summary>The issue's second case, as a user runs it: 8 of 10 rejected rows were in no file, the rejects replaced by the report.</summary>
    [Fact]
    public async Task The_report_and_the_rejects_at_one_path_stop_the_load_naming_both_settings()
    {
        var table = AzuriteFixture.UniqueTableName("sameout");
        var settings = Settings(300, table);
        var output = _directory.File("out.csv");
        settings["Loader:ReportPath"] = output;
        settings["Loader:RejectsPath"] = output;
        settings["Loader:LogFormat"] = "Text";

        await using var loader = LoaderProcess.Start(settings);
        var exitCode = await loader.WaitForExitAsync(TimeSpan.FromMinutes(1), _cancellation);

        Assert.True(exitCode == ExitCodes.InvalidConfiguration, $"exit {exitCode}:{Environment.NewLine}{loader.Output}");
        Assert.Contains($"Loader:RejectsPath: cannot write '{output}': it is also Loader:ReportPath '{output}': one would replace the other.", loader.Output, StringComparison.Ordinal);
        Assert.False(File.Exists(output));
        await AssertNothingLoadedAsync(table);
    }

    [Fact]
    public async Task An_output_inside_the_input_blob_prefix_stops_the_load_and_nothing_is_written_there()
    {
        var container = await azurite.CreateContainerAsync(_cancellation);
        await azurite.UploadAsync(container, "flights/part-1.csv", BinaryData.FromString("pk,rk\np,1\n"), "text/csv", _cancellation);
        var table = AzuriteFixture.UniqueTableName("inprefix");
        var settings = Settings(0, table);
        settings["Loader:Input"] = Url(container, "flights/");
        settings["Loader:RejectsPath"] = Url(container, "flights/rejects.csv");

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.InvalidConfiguration, run.ExitCode);
        Assert.Contains(
            $"Loader:RejectsPath: cannot write '{Url(container, "flights/rejects.csv")}': it is inside the input, Loader:Input '{Url(container, "flights/")}', which a later run or shard would read it from as data.",
            run.Summary,
            StringComparison.Ordinal);
        Assert.Equal(["flights/part-1.csv"], await BlobNamesAsync(container));
        await AssertNothingLoadedAsync(table);
    }

    [Fact]
    public async Task Check_says_an_output_is_the_input_and_writes_no_probe_beside_it()
    {
        var table = AzuriteFixture.UniqueTableName("checkover");
        var settings = Settings(50, table);
        var input = settings["Loader:Input"]!;
        settings["Loader:ReportPath"] = input;
        settings["Loader:Check"] = "true";
        settings["Loader:LogFormat"] = "Text";
        var bytes = await File.ReadAllBytesAsync(input, _cancellation);
        var before = Snapshot(_directory.Path);

        await using var loader = LoaderProcess.Start(settings);
        var exitCode = await loader.WaitForExitAsync(TimeSpan.FromMinutes(1), _cancellation);

        Assert.True(exitCode == ExitCodes.InvalidConfiguration, loader.Output);
        Assert.Contains($"FAIL Loader:ReportPath {input}: it is the input, Loader:Input '{input}': writing there would destroy it", loader.Output, StringComparison.Ordinal);
        Assert.Contains("OK   Loader:Input ", loader.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("Loader:HtmlReportPath", loader.Output, StringComparison.Ordinal); // not probed while an output is refused
        Assert.Equal(bytes, await File.ReadAllBytesAsync(input, _cancellation));
        Assert.Equal(before, Snapshot(_directory.Path));
    }

    /// <summary>
    /// plan with its state folder inside the input's prefix: each shard's files would be read as data by the next plan. Refused
    /// before the state folder is proven writable; the queue is never reached (its port has no service).
    /// </summary>
    [Fact]
    public async Task Plan_with_the_state_folder_inside_the_input_prefix_is_refused_and_writes_nothing()
    {
        var container = await azurite.CreateContainerAsync(_cancellation);
        await azurite.UploadAsync(container, "load/part-1.csv", BinaryData.FromString("pk,rk\np,1\n"), "text/csv", _cancellation);
        var settings = Settings(0, AzuriteFixture.UniqueTableName("planover"));
        settings["Loader:Input"] = Url(container, "load/");
        settings["Loader:Shards:State"] = Url(container, "load/state/");
        settings["Loader:Shards:Queue"] = "http://127.0.0.1:9/devstoreaccount1/never-reached";
        settings["Loader:LogFormat"] = "Text";

        await using var loader = LoaderProcess.Start("plan", settings);
        var exitCode = await loader.WaitForExitAsync(TimeSpan.FromMinutes(1), _cancellation);

        Assert.True(exitCode == ExitCodes.InvalidConfiguration, loader.Output);
        Assert.Contains(
            $"Loader:Shards:State: cannot write '{Url(container, "load/state/")}': it is inside the input, Loader:Input '{Url(container, "load/")}', which a later run or shard would read it from as data.",
            loader.Output,
            StringComparison.Ordinal);
        Assert.Contains("Nothing was planned", loader.Output, StringComparison.Ordinal);
        Assert.Equal(["load/part-1.csv"], await BlobNamesAsync(container));
    }
}
