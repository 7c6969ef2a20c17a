using System.Globalization;
using System.Text;
using Azure.Storage.Blobs.Models;
using Loader.Worker.Checkpoints;
using Loader.Worker.Inputs;
using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;
using Loader.Worker.Tests.Infrastructure;
using Loader.Worker.Tests.Storage.Blobs;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// Compressed input end to end on Azurite, read back from the table: every codec loads what the plain file loads, from a
/// local file and from a blob (fed by the ranged read-ahead in small blocks); a prefix mixes plain and compressed blobs;
/// a file cut short stops the load with exit 7 and a checkpoint, and the load resumes once the file is whole again.
/// </summary>
public sealed class CompressedInputTests(BlobAzuriteFixture azurite) : IClassFixture<BlobAzuriteFixture>, IDisposable
{
    private const int Rows = 20_000;
    private const int BadRow = 12_345;

    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    public static TheoryData<string, bool, bool> Cases()
    {
        var cases = new TheoryData<string, bool, bool>();
        foreach (var blob in new[] { false, true })
        {
            cases.Add(nameof(InputCompression.None), true, blob);
            cases.Add(nameof(InputCompression.Gzip), true, blob);
            cases.Add(nameof(InputCompression.Brotli), true, blob);
            cases.Add(nameof(InputCompression.Deflate), true, blob);
            cases.Add(nameof(InputCompression.Deflate), false, blob);
            cases.Add(nameof(InputCompression.Zstd), true, blob);
        }

        return cases;
    }

    private static string Csv(int first, int last) =>
        new StringBuilder("pk,rk,n,note\n").AppendJoin("", Enumerable.Range(first, last - first + 1).Select(i => string.Create(CultureInfo.InvariantCulture,
            $"p{i % 11},r{i:D6},{(i == BadRow ? "not a number" : i.ToString(CultureInfo.InvariantCulture))},\"row {i}, compressed\"\n"))).ToString();

    private Dictionary<string, string?> Settings(string input, string table) => new()
    {
        ["Loader:Input"] = input,
        ["Loader:Blob:ConnectionString"] = azurite.Azurite.ConnectionString,
        ["Loader:Blob:ReadBlockSize"] = (64 * 1024).ToString(CultureInfo.InvariantCulture), // the smallest block: several ranged reads feed the decompressor
        ["Loader:Tables:ConnectionString"] = azurite.Azurite.ConnectionString,
        ["Loader:Tables:Table"] = table,
        ["Loader:PartitionKey"] = "{pk}",
        ["Loader:RowKey"] = "{rk}",
        ["Loader:Columns:n"] = "Int32",
        ["Loader:RejectsPath"] = _directory.File($"{table}-rejects.csv"),
    };

    private string Url(string container, string path) => $"{azurite.Azurite.BlobEndpoint}/{container}/{path}";

    private async Task AssertTableHoldsAsync(string table, IEnumerable<int> rows)
    {
        var stored = await AzuriteFixture.ReadTableAsync(azurite.Azurite.ConnectionString, table, _cancellation);
        var expected = rows.ToList();
        Assert.Equal(expected.Count, stored.Count);
        foreach (var i in expected)
        {
            var entity = stored[(string.Create(CultureInfo.InvariantCulture, $"p{i % 11}"), string.Create(CultureInfo.InvariantCulture, $"r{i:D6}"))];
            Assert.Equal(i, entity.Properties["n"]);
            Assert.Equal(string.Create(CultureInfo.InvariantCulture, $"row {i}, compressed"), entity.Properties["note"]);
        }
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task Each_codec_loads_the_rows_the_plain_file_loads_and_rejects_keep_their_line(string codecName, bool zlib, bool blob)
    {
        var codec = Enum.Parse<InputCompression>(codecName);
        var csv = Encoding.UTF8.GetBytes(Csv(1, Rows));
        var bytes = codec == InputCompression.None ? csv : Compressed.Bytes(codec, csv, zlib);
        var name = "flights.csv" + Compressed.Extension(codec, zlib);
        var table = AzuriteFixture.UniqueTableName("codec");
        string input;
        if (blob)
        {
            var container = await azurite.CreateContainerAsync(_cancellation);
            await azurite.UploadAsync(container, "in/" + name, BinaryData.FromBytes(bytes), "text/csv", _cancellation);
            input = Url(container, "in/" + name);
        }
        else
        {
            input = _directory.File(name);
            await File.WriteAllBytesAsync(input, bytes, _cancellation);
        }

        var run = await LoaderRunner.RunAsync(Settings(input, table), _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal((Rows, Rows - 1L, 1L, Rows + 1L), (report.RowsRead, report.RowsWritten, report.RowsRejected, report.LinesRead));
        await AssertTableHoldsAsync(table, Enumerable.Range(1, Rows).Where(i => i != BadRow));
        var reject = Assert.Single(RejectsFile.Read(_directory.File($"{table}-rejects.csv")).Rows);
        Assert.Equal(BadRow + 1, reject.Line); // the header is line 1
        if (codec != InputCompression.None)
        {
            Assert.Contains(run.Logs.Logs, log => log.Message.Contains($"is {codec}-compressed ({bytes.Length:N0} bytes)", StringComparison.Ordinal));
        }
    }

    [Fact]
    public async Task A_blob_without_an_extension_is_read_by_its_content_encoding_and_the_setting_overrides_both()
    {
        var container = await azurite.CreateContainerAsync(_cancellation);
        var csv = Encoding.UTF8.GetBytes(Csv(1, 3_000));
        await azurite.Blob(container, "export/part-0001").UploadAsync(BinaryData.FromBytes(Compressed.Bytes(InputCompression.Gzip, csv)),
            new BlobUploadOptions { HttpHeaders = new BlobHttpHeaders { ContentType = "text/csv", ContentEncoding = "gzip" } }, _cancellation);
        await azurite.UploadAsync(container, "named/data.csv", BinaryData.FromBytes(Compressed.Bytes(InputCompression.Zstd, csv)), "application/octet-stream", _cancellation);

        var byEncoding = AzuriteFixture.UniqueTableName("encoding");
        var encoded = await LoaderRunner.RunAsync(Settings(Url(container, "export/part-0001"), byEncoding), _cancellation);
        var bySetting = AzuriteFixture.UniqueTableName("setting");
        var settings = Settings(Url(container, "named/data.csv"), bySetting);
        settings["Loader:Csv:Compression"] = "Zstd";
        var set = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal((ExitCodes.Success, 3_000L), (encoded.ExitCode, encoded.RequireReport().RowsWritten));
        Assert.Equal((ExitCodes.Success, 3_000L), (set.ExitCode, set.RequireReport().RowsWritten));
        await AssertTableHoldsAsync(byEncoding, Enumerable.Range(1, 3_000));
        await AssertTableHoldsAsync(bySetting, Enumerable.Range(1, 3_000));
    }

    [Fact]
    public async Task A_prefix_mixing_plain_and_compressed_blobs_loads_them_as_one_input_and_rejects_name_the_file_and_its_line()
    {
        var container = await azurite.CreateContainerAsync(_cancellation);
        static byte[] Part(int first, int last) => Encoding.UTF8.GetBytes(Csv(first, last));
        await azurite.UploadAsync(container, "mixed/1.csv", BinaryData.FromBytes(Part(1, 5_000)), "text/csv", _cancellation);
        await azurite.UploadAsync(container, "mixed/2.csv.gz", BinaryData.FromBytes(Compressed.Concatenated(InputCompression.Gzip, Part(5_001, 10_000), pieces: 2)), "application/gzip", _cancellation);
        await azurite.UploadAsync(container, "mixed/3.csv.zst", BinaryData.FromBytes(Compressed.Bytes(InputCompression.Zstd, Part(10_001, 15_000))), "application/zstd", _cancellation);
        await azurite.UploadAsync(container, "mixed/4.csv.br", BinaryData.FromBytes(Compressed.Bytes(InputCompression.Brotli, Part(15_001, Rows))), "application/x-brotli", _cancellation);
        var table = AzuriteFixture.UniqueTableName("mixed");

        var run = await LoaderRunner.RunAsync(Settings(Url(container, "mixed/"), table), _cancellation);

        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal((Rows, Rows - 1L, 1L), (run.RequireReport().RowsRead, run.RequireReport().RowsWritten, run.RequireReport().RowsRejected));
        await AssertTableHoldsAsync(table, Enumerable.Range(1, Rows).Where(i => i != BadRow));
        var reject = Assert.Single(RejectsFile.Read(_directory.File($"{table}-rejects.csv")).Rows);
        // Row 12,345 is line 12,346 of the combined input and line 2,346 of 3.csv.zst (its header, then rows 10,001...).
        Assert.Equal((12_346L, "mixed/3.csv.zst", 2_346L), (reject.Line, reject.File, reject.FileLine));
    }

    [Fact]
    public async Task A_truncated_gzip_file_stops_the_load_with_exit_7_naming_the_file_and_byte_and_the_repaired_file_resumes_to_a_whole_table()
    {
        var whole = Compressed.Bytes(InputCompression.Gzip, Encoding.UTF8.GetBytes(Csv(1, Rows)));
        var cut = whole.Length * 2 / 3;
        var input = _directory.File("export.csv.gz");
        await File.WriteAllBytesAsync(input, whole[..cut], _cancellation);
        var table = AzuriteFixture.UniqueTableName("cut");
        var settings = Settings(input, table);
        settings["Loader:CheckpointPath"] = _directory.File("checkpoint.json");

        var first = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = first.RequireReport();
        Assert.Equal(ExitCodes.InputDamaged, first.ExitCode);
        Assert.Equal(ReportOutcome.Failed, report.Outcome);
        Assert.Contains(string.Create(CultureInfo.InvariantCulture, $"'export.csv.gz' cannot be decompressed: its Gzip data end at byte {cut:N0}, the end of the file"), report.Message, StringComparison.Ordinal);
        Assert.True(report.Reconciled);
        Assert.InRange(report.RowsRead, Rows / 3, Rows - 1); // what came before the cut, never taken for the whole input
        var checkpoint = (await CheckpointStore.AtPath(settings["Loader:CheckpointPath"]!).ReadAsync(_cancellation))!;
        Assert.False(checkpoint.Completed);
        Assert.Equal(("export.csv.gz", (long)cut), (checkpoint.Damage!.Part, checkpoint.Damage.Offset));
        Assert.Equal(report.RowsRead, checkpoint.NextRecord - 1);
        var stored = await AzuriteFixture.ReadTableAsync(azurite.Azurite.ConnectionString, table, _cancellation);
        Assert.Equal(report.RowsWritten, stored.Count);

        await File.WriteAllBytesAsync(input, whole, _cancellation); // the file downloaded again, whole
        var second = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.Success, second.ExitCode);
        Assert.Equal(checkpoint.NextRecord - 1, second.RequireReport().RowsSkipped);
        Assert.Contains(second.Logs.Logs, log => log.Message.Contains("was written when export.csv.gz was found damaged", StringComparison.Ordinal));
        Assert.Contains(second.Logs.Logs, log => log.Message.Contains("is compressed (export.csv.gz) and cannot seek", StringComparison.Ordinal));
        await AssertTableHoldsAsync(table, Enumerable.Range(1, Rows).Where(i => i != BadRow));
        Assert.Single(RejectsFile.Read(settings["Loader:RejectsPath"]!).Rows); // the bad row once, across both runs
    }

    [Theory]
    [InlineData("garbage")]
    [InlineData("rows")]
    public async Task A_gzip_file_with_bytes_after_its_last_member_loads_every_row_before_them_then_stops_with_exit_7_naming_the_byte(string appended)
    {
        // The issue's two files: 2,000 rows with 1 KB of garbage after the last member, and with 300 plain CSV rows appended.
        var compressed = Compressed.Bytes(InputCompression.Gzip, Encoding.UTF8.GetBytes(Csv(1, 2_000)));
        var after = appended == "garbage"
            ? Enumerable.Range(0, 1_024).Select(i => (byte)((i * 131) + 7)).ToArray()
            : Encoding.UTF8.GetBytes(Csv(2_001, 2_300)[13..]); // without its header: what `cat more.csv >> export.csv.gz` adds
        var input = _directory.File("export.csv.gz");
        await File.WriteAllBytesAsync(input, [.. compressed, .. after], _cancellation);
        var table = AzuriteFixture.UniqueTableName("tail");

        var run = await LoaderRunner.RunAsync(Settings(input, table), _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.InputDamaged, run.ExitCode);
        Assert.Contains(string.Create(CultureInfo.InvariantCulture,
            $"'export.csv.gz' cannot be decompressed: more bytes follow the end of its Gzip data, which end at byte {compressed.Length:N0} of {compressed.Length + after.Length:N0}: the {after.Length:N0} bytes after them are not Gzip data"),
            report.Message, StringComparison.Ordinal);
        Assert.Equal((2_000L, 2_000L), (report.RowsRead, report.RowsWritten)); // every row before them
        Assert.True(report.Reconciled);
        await AssertTableHoldsAsync(table, Enumerable.Range(1, 2_000));
    }

    [Fact]
    public async Task A_checkpoint_of_a_damaged_file_is_still_refused_for_another_file_or_other_settings()
    {
        var input = _directory.File("export.csv.gz");
        var whole = Compressed.Bytes(InputCompression.Gzip, Encoding.UTF8.GetBytes(Csv(1, 3_000)));
        await File.WriteAllBytesAsync(input, whole[..(whole.Length / 2)], _cancellation);
        var table = AzuriteFixture.UniqueTableName("cutother");
        var settings = Settings(input, table);
        settings["Loader:CheckpointPath"] = _directory.File("checkpoint.json");
        Assert.Equal(ExitCodes.InputDamaged, (await LoaderRunner.RunAsync(settings, _cancellation)).ExitCode);

        await File.WriteAllBytesAsync(input, whole, _cancellation);
        settings["Loader:PartitionKey"] = "{rk}";
        var otherSettings = await LoaderRunner.RunAsync(settings, _cancellation);
        settings["Loader:PartitionKey"] = "{pk}";
        settings["Loader:Input"] = _directory.File("other.csv.gz");
        await File.WriteAllBytesAsync(settings["Loader:Input"]!, whole, _cancellation);
        var otherFile = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.InvalidConfiguration, otherSettings.ExitCode);
        Assert.Contains("Loader:PartitionKey was '{pk}', is '{rk}'", otherSettings.RequireReport().Message, StringComparison.Ordinal);
        Assert.Equal(ExitCodes.InvalidConfiguration, otherFile.ExitCode);
        Assert.Contains("belongs to another load", otherFile.RequireReport().Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_truncated_blob_in_a_prefix_stops_the_load_with_exit_7_naming_the_blob()
    {
        var container = await azurite.CreateContainerAsync(_cancellation);
        var second = Compressed.Bytes(InputCompression.Zstd, Encoding.UTF8.GetBytes(Csv(5_001, 10_000)));
        await azurite.UploadAsync(container, "cut/1.csv", BinaryData.FromString(Csv(1, 5_000)), "text/csv", _cancellation);
        await azurite.UploadAsync(container, "cut/2.csv.zst", BinaryData.FromBytes(second[..(second.Length - 10)]), "application/zstd", _cancellation);
        var table = AzuriteFixture.UniqueTableName("cutblob");

        var run = await LoaderRunner.RunAsync(Settings(Url(container, "cut/"), table), _cancellation);

        Assert.Equal(ExitCodes.InputDamaged, run.ExitCode);
        Assert.Contains(string.Create(CultureInfo.InvariantCulture, $"'cut/2.csv.zst' cannot be decompressed: its Zstd data end at byte {second.Length - 10:N0}"), run.RequireReport().Message, StringComparison.Ordinal);
        Assert.InRange(run.RequireReport().RowsRead, 5_000, 9_999);
        Assert.True(run.RequireReport().Reconciled);
    }

    /// <summary>A crash (SIGKILL) during a .gz load, then a restart: the restart decompresses from the top, skips what was settled, and the table ends equal to the input.</summary>
    [Fact]
    public async Task A_gzip_load_killed_then_restarted_ends_with_the_table_equal_to_the_input()
    {
        var flights = SkewedFlights.Write(_directory, 60_000);
        var gz = flights.Path + ".gz";
        await File.WriteAllBytesAsync(gz, Compressed.Bytes(InputCompression.Gzip, await File.ReadAllBytesAsync(flights.Path, _cancellation)), _cancellation);
        var table = AzuriteFixture.UniqueTableName("gzkill");
        var settings = flights.Settings(azurite.Azurite.ConnectionString, table);
        settings["Loader:Input"] = gz;
        settings["Loader:CheckpointPath"] = _directory.File("kill-checkpoint.json");
        settings["Loader:ReportPath"] = _directory.File("kill-report.json");
        settings["Loader:CheckpointInterval"] = "00:00:00.5";
        settings["Loader:ProgressInterval"] = "00:00:00.5";
        settings["Loader:LogFormat"] = "Json";

        await using (var loader = LoaderProcess.Start(settings))
        {
            await loader.WhenWrittenAsync(20_000, _cancellation);
            await loader.KillAsync();
        }

        var checkpoint = (await CheckpointStore.AtPath(settings["Loader:CheckpointPath"]!).ReadAsync(_cancellation))!;
        Assert.False(checkpoint.Completed);
        Assert.True(checkpoint.NextRecord > 1, "the killed load left a checkpoint with settled records");

        string output;
        await using (var restart = LoaderProcess.Start(settings))
        {
            Assert.Equal(ExitCodes.Success, await restart.WaitForExitAsync(TimeSpan.FromMinutes(10), _cancellation));
            output = restart.Output;
        }

        Assert.Contains("cannot seek", output, StringComparison.Ordinal);
        var report = System.Text.Json.JsonDocument.Parse(await File.ReadAllTextAsync(settings["Loader:ReportPath"]!, _cancellation)).RootElement;
        Assert.True(report.GetProperty("reconciled").GetBoolean());
        // Skipped: the records below the watermark, and those above it the killed run had settled (all read but the pending).
        var pending = checkpoint.Pending.Sum(range => range[1] - range[0] + 1);
        var skips = checkpoint.ReadUpTo >= checkpoint.NextRecord ? checkpoint.ReadUpTo - pending : checkpoint.NextRecord - 1;
        Assert.Equal(skips, report.GetProperty("rowsSkipped").GetInt64());
        flights.AssertTableEquals(await AzuriteFixture.ReadTableAsync(azurite.Azurite.ConnectionString, table, _cancellation));
        Measurements.Record(string.Create(CultureInfo.InvariantCulture,
            $"SIGKILL during a .gz load of {flights.Rows:N0} rows: the restart decompressed from the top, skipped {skips:N0} settled records, and the table equals the input"));
    }
}
