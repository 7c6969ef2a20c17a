using System.Globalization;
using System.Text;
using Loader.Worker.Checkpoints;
using Loader.Worker.Outcomes;
using Loader.Worker.Outputs;
using Loader.Worker.Reporting;
using Loader.Worker.Storage.Blobs;
using Loader.Worker.Tests.Infrastructure;
using Loader.Worker.Tests.Storage.Blobs;
using Loader.Worker.Security;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// Loads whose input is in Azurite's Blob service: one blob, every blob under a prefix read as one CSV, a blob larger
/// than a read block, with checkpoint, report and rejects kept in blobs too — read back from the table each time.
/// </summary>
public sealed class BlobInputTests(BlobAzuriteFixture azurite) : IClassFixture<BlobAzuriteFixture>, IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string Url(string container, string path) => $"{azurite.Azurite.BlobEndpoint}/{container}/{path}";

    private Dictionary<string, string?> Settings(string input, string table) => new()
    {
        ["Loader:Input"] = input,
        ["Loader:Blob:ConnectionString"] = azurite.Azurite.ConnectionString,
        ["Loader:Tables:ConnectionString"] = azurite.Azurite.ConnectionString,
        ["Loader:Tables:Table"] = table,
        ["Loader:PartitionKey"] = "{pk}",
        ["Loader:RowKey"] = "{rk}",
        ["Loader:Columns:n"] = "Int32",
    };

    /// <summary>Rows numbered <paramref name="first"/> to <paramref name="last"/>, with a header; the last line break left out when asked.</summary>
    private static string Rows(int first, int last, bool finalLineBreak = true, Func<int, string>? value = null)
    {
        var text = new StringBuilder("pk,rk,n,note\n");
        for (var i = first; i <= last; i++)
        {
            text.Append(CultureInfo.InvariantCulture, $"p{i % 7},r{i:D6},{value?.Invoke(i) ?? i.ToString(CultureInfo.InvariantCulture)},row {i} of the blob input\n");
        }

        return finalLineBreak ? text.ToString() : text.ToString().TrimEnd('\n');
    }

    private async Task UploadAsync(string container, string name, string content) =>
        await azurite.UploadAsync(container, name, BinaryData.FromString(content), "text/csv", _cancellation);

    private async Task AssertTableHoldsAsync(string table, IEnumerable<int> rows)
    {
        var stored = await AzuriteFixture.ReadTableAsync(azurite.Azurite.ConnectionString, table, _cancellation);
        var expected = rows.ToList();
        Assert.Equal(expected.Count, stored.Count);
        foreach (var i in expected)
        {
            var entity = stored[(string.Create(CultureInfo.InvariantCulture, $"p{i % 7}"), string.Create(CultureInfo.InvariantCulture, $"r{i:D6}"))];
            Assert.Equal(i, entity.Properties["n"]);
            Assert.Equal(string.Create(CultureInfo.InvariantCulture, $"row {i} of the blob input"), entity.Properties["note"]);
        }
    }

    [Fact]
    public async Task One_blob_by_its_URL_loads_like_a_file()
    {
        var container = await azurite.CreateContainerAsync(_cancellation);
        await UploadAsync(container, "in/flights 2026.csv", Rows(1, 1_500));
        var table = AzuriteFixture.UniqueTableName("blob");

        var run = await LoaderRunner.RunAsync(Settings(Url(container, "in/flights%202026.csv"), table), _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal((1_500L, 1_500L), (report.RowsRead, report.RowsWritten));
        Assert.Equal(Url(container, "in/flights%202026.csv"), report.Input);
        await AssertTableHoldsAsync(table, Enumerable.Range(1, 1_500));
    }

    [Fact]
    public async Task A_prefix_loads_every_blob_under_it_in_name_order_as_one_input_and_rejects_name_the_file_and_its_line()
    {
        var container = await azurite.CreateContainerAsync(_cancellation);
        await UploadAsync(container, "daily/2026-11-02.csv", Rows(501, 900, value: i => i == 777 ? "not a number" : i.ToString(CultureInfo.InvariantCulture)));
        await UploadAsync(container, "daily/2026-11-01.csv", Rows(1, 500, finalLineBreak: false)); // no line break at its end
        await UploadAsync(container, "daily/2026-11-03.csv", Rows(901, 1_000));
        await UploadAsync(container, "dailyextra.csv", Rows(5_000, 5_010)); // not under "daily/"
        var table = AzuriteFixture.UniqueTableName("prefix");
        var settings = Settings(Url(container, "daily/"), table);
        settings["Loader:RejectsPath"] = _directory.File("rejects.csv");

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal((1_000L, 999L, 1L), (report.RowsRead, report.RowsWritten, report.RowsRejected));
        await AssertTableHoldsAsync(table, Enumerable.Range(1, 1_000).Where(i => i != 777));
        var rejects = RejectsFile.Read(_directory.File("rejects.csv"));
        Assert.Equal(["pk", "rk", "n", "note"], rejects.DataColumns);
        // Line 778 of the combined input (header, 500 rows, then the second file's rows 501...) is line 278 of its own file.
        var reject = Assert.Single(rejects.Rows);
        Assert.Equal((778L, "daily/2026-11-02.csv", 278L, 778L), (reject.Line, reject.File, reject.FileLine, reject.InputLine));
        Assert.Equal(["p0", "r000777", "not a number", "row 777 of the blob input"], reject.Fields);
    }

    [Fact]
    public async Task A_blob_larger_than_a_read_block_is_streamed_in_blocks_and_loads_whole()
    {
        var container = await azurite.CreateContainerAsync(_cancellation);
        var content = Rows(1, 9_000);
        Assert.True(Encoding.UTF8.GetByteCount(content) > 5 * 64 * 1024, "the blob must span several blocks");
        await UploadAsync(container, "big.csv", content);
        var table = AzuriteFixture.UniqueTableName("big");
        var settings = Settings(Url(container, "big.csv"), table);
        settings["Loader:Blob:ReadBlockSize"] = (64 * 1024).ToString(CultureInfo.InvariantCulture);

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal(9_000, run.RequireReport().RowsWritten);
        await AssertTableHoldsAsync(table, Enumerable.Range(1, 9_000));
    }

    [Fact]
    public async Task Checkpoint_report_and_rejects_can_live_in_blobs_and_a_stopped_load_resumes_from_there()
    {
        var container = await azurite.CreateContainerAsync(_cancellation);
        await UploadAsync(container, "input/all.csv", Rows(1, 12_000, value: i => i % 1_000 == 0 ? "bad" : i.ToString(CultureInfo.InvariantCulture)));
        var table = AzuriteFixture.UniqueTableName("blobcp");
        var settings = Settings(Url(container, "input/all.csv"), table);
        settings["Loader:CheckpointPath"] = Url(container, "state/checkpoint.json");
        settings["Loader:ReportPath"] = Url(container, "state/report.json");
        settings["Loader:RejectsPath"] = Url(container, "state/rejects.csv");
        settings["Loader:CheckpointInterval"] = "00:00:00.2";
        settings["Loader:MaxParallelBatches"] = "1";
        settings["Loader:MaxBufferedRows"] = "200";

        using (var stop = new CancellationTokenSource())
        {
            var first = LoaderRunner.Start(settings, stop.Token);
            await first.WhenWrittenAsync(3_000, _cancellation);
            await stop.CancelAsync();
            Assert.Equal(ExitCodes.Stopped, (await first.Completion).ExitCode);
        }

        var blobs = new BlobClientFactory(new BlobOptions { ConnectionString = azurite.Azurite.ConnectionString });
        var outputs = new OutputFiles(blobs, Redaction.Rule);
        var checkpoint = await new CheckpointStore(outputs.For(settings["Loader:CheckpointPath"])!).ReadAsync(_cancellation);
        Assert.NotNull(checkpoint);
        Assert.False(checkpoint.Completed);

        var second = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.Success, second.ExitCode);
        var report = (await outputs.For(settings["Loader:ReportPath"])!.ReadAsync(_cancellation))!.ToObjectFromJson<LoadReport>(ReportWriter.JsonOptions)!;
        Assert.Equal(checkpoint.NextRecord - 1, report.RowsSkipped);
        Assert.Equal(Url(container, "state/checkpoint.json"), report.CheckpointPath);
        var rejects = RejectsFile.Parse((await outputs.For(settings["Loader:RejectsPath"])!.ReadAsync(_cancellation))!.ToString()).Rows;
        Assert.Equal(12, rejects.Count); // every 1000th row, once each across both runs
        Assert.Equal(12, rejects.Select(reject => reject.Line).Distinct().Count());
        Assert.True((await CheckpointStore(outputs, settings).ReadAsync(_cancellation))!.Completed);
        await AssertTableHoldsAsync(table, Enumerable.Range(1, 12_000).Where(i => i % 1_000 != 0));
    }

    private static CheckpointStore CheckpointStore(OutputFiles outputs, Dictionary<string, string?> settings) =>
        new(outputs.For(settings["Loader:CheckpointPath"])!);

    [Fact]
    public async Task Files_under_a_prefix_with_another_header_fail_at_start_naming_the_file()
    {
        var container = await azurite.CreateContainerAsync(_cancellation);
        await UploadAsync(container, "mixed/a.csv", Rows(1, 10));
        await UploadAsync(container, "mixed/b.csv", "pk,rk,amount,note\np1,r1,5,x\n");
        var table = AzuriteFixture.UniqueTableName("mixed");

        var run = await LoaderRunner.RunAsync(Settings(Url(container, "mixed/"), table), _cancellation);

        Assert.Equal(ExitCodes.InvalidConfiguration, run.ExitCode);
        Assert.Contains("'mixed/b.csv' starts with 'pk,rk,amount,note', not the header of 'mixed/a.csv', 'pk,rk,n,note'", run.RequireReport().Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_blob_rewritten_while_it_is_read_stops_the_load_with_exit_3_naming_it_after_the_rows_before()
    {
        var container = await azurite.CreateContainerAsync(_cancellation);
        await UploadAsync(container, "flights.csv", Rows(1, 60_000));
        var table = AzuriteFixture.UniqueTableName("rewritten");
        var settings = Settings(Url(container, "flights.csv"), table);
        settings["Loader:Blob:ReadBlockSize"] = (64 * 1024).ToString(CultureInfo.InvariantCulture);
        settings["Loader:MaxRowsPerSecond"] = "5000"; // the load takes about 12 s: time to rewrite the blob under it

        var load = LoaderRunner.Start(settings, _cancellation);
        await load.WhenWrittenAsync(2_000, _cancellation);
        await UploadAsync(container, "flights.csv", Rows(1, 10)); // another job replaces the export
        var run = await load.Completion.WaitAsync(TimeSpan.FromMinutes(2), _cancellation); // it used to hang here

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Unavailable, run.ExitCode);
        Assert.StartsWith("reading the input failed after ", report.Message, StringComparison.Ordinal);
        Assert.Contains($"reading 'flights.csv' failed: reading blob '{container}/flights.csv' at offset ", report.Message, StringComparison.Ordinal);
        Assert.Contains("The blob changed while it was being read", report.Message, StringComparison.Ordinal);
        Assert.InRange(report.RowsRead, 2_000, 59_999);
        Assert.True(report.Reconciled);
        Assert.Equal(report.RowsWritten, (await AzuriteFixture.ReadTableAsync(azurite.Azurite.ConnectionString, table, _cancellation)).Count);
    }

    [Fact]
    public async Task A_prefix_with_no_blobs_and_a_missing_blob_are_named_as_such()
    {
        var container = await azurite.CreateContainerAsync(_cancellation);

        var none = await LoaderRunner.RunAsync(Settings(Url(container, "nothing/"), AzuriteFixture.UniqueTableName("none")), _cancellation);
        var missing = await LoaderRunner.RunAsync(Settings(Url(container, "missing.csv"), AzuriteFixture.UniqueTableName("none")), _cancellation);

        Assert.Equal(ExitCodes.Unavailable, none.ExitCode);
        Assert.Equal($"Loader:Input: no blobs (with content) under '{Url(container, "nothing/")}'.", none.RequireReport().Message);
        Assert.Equal(ExitCodes.Unavailable, missing.ExitCode);
        Assert.Equal($"Loader:Input: blob '{Url(container, "missing.csv")}' does not exist.", missing.RequireReport().Message);
    }

    [Fact]
    public async Task A_prefix_reached_with_a_shared_access_signature_loads_without_any_key_and_the_signature_is_never_shown()
    {
        var container = await azurite.CreateContainerAsync(_cancellation);
        await UploadAsync(container, "in/a.csv", Rows(1, 400));
        await UploadAsync(container, "in/b.csv", Rows(401, 900));
        var sas = AccountSas.ReadAndListOnAzurite();
        var table = AzuriteFixture.UniqueTableName("sasok");
        var settings = Settings(Url(container, "in/") + "?" + sas, table);
        settings.Remove("Loader:Blob:ConnectionString"); // the signature alone opens the blobs

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal((900L, 900L), (report.RowsRead, report.RowsWritten));
        Assert.Equal(Url(container, "in/"), report.Input);
        var signature = Uri.UnescapeDataString(sas[(sas.IndexOf("sig=", StringComparison.Ordinal) + 4)..]);
        Assert.DoesNotContain(signature, run.Logs.AllText + run.Summary, StringComparison.Ordinal);
        Assert.DoesNotContain(Uri.EscapeDataString(signature), run.Logs.AllText + run.Summary, StringComparison.Ordinal);
        await AssertTableHoldsAsync(table, Enumerable.Range(1, 900));
    }

    [Fact]
    public async Task A_refused_shared_access_signature_fails_with_a_message_that_does_not_repeat_it()
    {
        var container = await azurite.CreateContainerAsync(_cancellation);
        await UploadAsync(container, "in.csv", Rows(1, 10));
        const string Signature = "sv=2021-12-02&ss=b&srt=sco&sp=rl&se=2030-01-01T00:00:00Z&sig=ThisSignatureIsMadeUpAndSecret%3D";
        var settings = Settings(Url(container, "in.csv") + "?" + Signature, AzuriteFixture.UniqueTableName("sas"));
        settings.Remove("Loader:Blob:ConnectionString");

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Unavailable, run.ExitCode);
        Assert.Contains("403", report.Message, StringComparison.Ordinal);
        Assert.Equal(Url(container, "in.csv"), report.Input);
        Assert.DoesNotContain("ThisSignatureIsMadeUp", report.Message + run.Logs.AllText + run.Summary, StringComparison.Ordinal);
    }
}
