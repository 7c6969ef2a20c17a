using System.Globalization;
using System.Text;
using System.Text.Json;
using Loader.Abstractions;
using Loader.Worker.Inputs;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;
using Loader.Worker.Tests.Storage.Blobs;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// JSON Lines through the real process as a user runs it: into Table Storage (Azurite) and into Cosmos DB (the stand-in
/// through the real SDK), read back and compared; nested objects, arrays, unicode escapes, a bad line and a name given
/// twice; a blob prefix of plain and compressed parts; a prefix mixing formats refused at start; a load killed mid-file
/// and started again ending with the table equal to the input.
/// </summary>
public sealed class JsonLinesLoadTests(BlobAzuriteFixture azurite, CosmosStandInFixture cosmos) : IClassFixture<BlobAzuriteFixture>, IDisposable
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(5);

    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    /// <summary>Five lines: two good, one not JSON (line 3), one naming a property twice (line 4), one good with another shape.</summary>
    private const string Documents = """
        {"pk":"p1","id":"r1","n":1,"x":1.5,"ok":true,"s":"caf\u00e9 \ud83d\ude00 \"q\"","customer":{"id":7,"address":{"city":"Oslo"}},"tags":["a",1],"when":"2024-03-01T10:00:00Z","none":null}
        {"pk":"p1","id":"r2","n":2,"x":2.5,"ok":false,"s":"two","customer":{"id":8,"address":{"city":"Rome"}},"tags":[],"when":"2024-03-02T10:00:00Z","extra":"later"}
        {"pk":"p2","id":"r3", oops}
        {"pk":"p2","id":"r4","n":4,"n":5}
        {"pk":"p2","id":"r5","n":12345678901,"x":5,"ok":true,"s":"日本","customer":{"id":9,"address":{"city":"Lima"}},"tags":[{"k":"v"}],"when":"2024-03-05T10:00:00Z"}

        """;

    private Dictionary<string, string?> Outputs(Dictionary<string, string?> settings, string name)
    {
        settings["Loader:RejectsPath"] = _directory.File($"{name}-rejects.jsonl");
        settings["Loader:ReportPath"] = _directory.File($"{name}-report.json");
        settings["Loader:Retry:BaseDelay"] = "00:00:00.01";
        return settings;
    }

    private Dictionary<string, string?> TableSettings(string input, string table) => Outputs(new()
    {
        ["Loader:Input"] = input,
        ["Loader:Blob:ConnectionString"] = azurite.Azurite.ConnectionString,
        ["Loader:Tables:ConnectionString"] = azurite.Azurite.ConnectionString,
        ["Loader:Tables:Table"] = table,
        ["Loader:PartitionKey"] = "{pk}",
        ["Loader:RowKey"] = "{id}-{customer_id}",
    }, table);

    private async Task<(int ExitCode, string Output)> RunAsync(Dictionary<string, string?> settings)
    {
        await using var loader = LoaderProcess.Start(settings);
        var exit = await loader.WaitForExitAsync(s_timeout, _cancellation);
        return (exit, loader.Output + loader.Error);
    }

    /// <summary>Runs <c>verify</c> with the load's settings: the target read back against the input, the rejected lines expected absent.</summary>
    private async Task AssertVerifyMatchesAsync(Dictionary<string, string?> settings)
    {
        var verifying = new Dictionary<string, string?>(settings) { ["Loader:LogFormat"] = "Text" };
        await using var verify = LoaderProcess.Start("verify", verifying);
        Assert.True(await verify.WaitForExitAsync(s_timeout, _cancellation) == ExitCodes.Success, verify.Output + verify.Error);
        Assert.Contains("Verify MATCHES", verify.Output, StringComparison.Ordinal);
    }

    private static JsonElement Report(Dictionary<string, string?> settings) =>
        JsonDocument.Parse(File.ReadAllText(settings["Loader:ReportPath"]!)).RootElement.Clone();

    private static List<JsonElement> RejectLines(Dictionary<string, string?> settings) =>
        [.. File.ReadAllLines(settings["Loader:RejectsPath"]!).Select(line => JsonDocument.Parse(line).RootElement.Clone())];

    [Fact]
    public async Task A_file_lands_in_table_storage_flattened_with_its_json_types_and_bad_lines_are_rejected_as_json_lines()
    {
        var input = _directory.File("documents.jsonl");
        await File.WriteAllTextAsync(input, Documents, _cancellation);
        var table = AzuriteFixture.UniqueTableName("jsonl");
        var settings = TableSettings(input, table);
        settings["Loader:Columns:when"] = "DateTime";

        var (exit, output) = await RunAsync(settings);

        Assert.True(exit == ExitCodes.Success, output);
        var report = Report(settings);
        Assert.True(report.GetProperty("reconciled").GetBoolean());
        Assert.Equal((5L, 3L, 2L), (report.GetProperty("rowsRead").GetInt64(), report.GetProperty("rowsWritten").GetInt64(), report.GetProperty("rowsRejected").GetInt64()));
        var stored = await AzuriteFixture.ReadTableAsync(azurite.Azurite.ConnectionString, table, _cancellation);
        Assert.Equal(3, stored.Count);
        var first = stored[("p1", "r1-7")].Properties;
        Assert.Equal(1L, first["n"]);
        Assert.Equal(1.5, first["x"]);
        Assert.Equal(true, first["ok"]);
        Assert.Equal("café 😀 \"q\"", first["s"]);
        Assert.Equal(7L, first["customer_id"]);
        Assert.Equal("Oslo", first["customer_address_city"]);
        Assert.Equal("[\"a\",1]", first["tags"]);
        Assert.Equal(new DateTime(2024, 3, 1, 10, 0, 0, DateTimeKind.Utc), first["when"]);
        Assert.False(first.ContainsKey("none"));
        Assert.Equal("later", stored[("p1", "r2-8")].Properties["extra"]);
        Assert.Equal((12345678901L, 5L, "日本", "[{\"k\":\"v\"}]"), ((long)stored[("p2", "r5-9")].Properties["n"], (long)stored[("p2", "r5-9")].Properties["x"], stored[("p2", "r5-9")].Properties["s"], stored[("p2", "r5-9")].Properties["tags"]));

        var rejects = RejectLines(settings);
        Assert.Equal([3L, 4L], rejects.Select(reject => reject.GetProperty("loader_reject_line").GetInt64()));
        Assert.Equal("{\"pk\":\"p2\",\"id\":\"r3\", oops}", rejects[0].GetProperty("loader_reject_record").GetString());
        Assert.StartsWith("not valid JSON at byte 23 of the line", rejects[0].GetProperty("loader_reject_reason").GetString(), StringComparison.Ordinal);
        Assert.Equal("property 'n' is named twice in one object", rejects[1].GetProperty("loader_reject_reason").GetString());
        Assert.Equal((4L, "documents.jsonl"), (rejects[1].GetProperty("loader_reject_input_line").GetInt64(), Path.GetFileName(rejects[1].GetProperty("loader_reject_file").GetString())));
        await AssertVerifyMatchesAsync(settings);
    }

    [Fact]
    public async Task Properties_each_row_names_anew_land_with_their_values_and_types_past_the_names_the_process_keeps()
    {
        // More rows than the names the process registers (PropertyName.RowNamesRegistered), each with two names no other row has.
        var rows = PropertyName.RowNamesRegistered / 2 + 1_000;
        var input = _directory.File("fresh-names.jsonl");
        await File.WriteAllLinesAsync(input, Enumerable.Range(1, rows).Select(i => string.Create(CultureInfo.InvariantCulture,
            $"{{\"pk\":\"p{i % 10}\",\"id\":\"r{i}\",\"x_{i}\":\"v{i}\",\"n_{i}\":{i}}}")), _cancellation);
        var table = AzuriteFixture.UniqueTableName("jlnames");
        var settings = TableSettings(input, table);
        settings["Loader:RowKey"] = "{id}";

        var (exit, output) = await RunAsync(settings);

        Assert.True(exit == ExitCodes.Success, output);
        var stored = await AzuriteFixture.ReadTableAsync(azurite.Azurite.ConnectionString, table, _cancellation);
        Assert.Equal(rows, stored.Count);
        Assert.All(Enumerable.Range(1, rows), i =>
        {
            var properties = stored[($"p{i % 10}", $"r{i}")].Properties;
            Assert.Equal(($"v{i}", (long)i, 2), (properties[$"x_{i}"], properties[$"n_{i}"], properties.Count - 2));
        });
    }

    [Fact]
    public async Task A_file_lands_in_cosmos_db_with_nested_objects_and_arrays_as_they_are()
    {
        var input = _directory.File("documents.jsonl");
        await File.WriteAllTextAsync(input, Documents, _cancellation);
        var container = CosmosStandInFixture.UniqueContainerName("jsonl");
        var settings = Outputs(cosmos.LoaderSettings(container), container);
        settings["Loader:Input"] = input;
        settings["Loader:PartitionKey"] = "{pk}";
        settings["Loader:RowKey"] = "{id}-{customer.id}";

        var (exit, output) = await RunAsync(settings);

        Assert.True(exit == ExitCodes.Success, output);
        Assert.Equal((3L, 2L), (Report(settings).GetProperty("rowsWritten").GetInt64(), Report(settings).GetProperty("rowsRejected").GetInt64()));
        var items = await cosmos.ReadContainerAsync(container, cancellationToken: _cancellation);
        Assert.Equal(3, items.Count);
        var first = items[("p1", "r1-7")];
        Assert.Equal(JsonValueKind.Number, first.GetProperty("n").ValueKind);
        Assert.Equal((1, 1.5, true, "café 😀 \"q\""), (first.GetProperty("n").GetInt32(), first.GetProperty("x").GetDouble(), first.GetProperty("ok").GetBoolean(), first.GetProperty("s").GetString()));
        Assert.Equal((7, "Oslo"), (first.GetProperty("customer").GetProperty("id").GetInt32(), first.GetProperty("customer").GetProperty("address").GetProperty("city").GetString()));
        Assert.Equal("[\"a\",1]", first.GetProperty("tags").GetRawText());
        Assert.Equal("2024-03-01T10:00:00Z", first.GetProperty("when").GetString());
        Assert.False(first.TryGetProperty("none", out _));
        Assert.Equal("[]", items[("p1", "r2-8")].GetProperty("tags").GetRawText());
        Assert.Equal("later", items[("p1", "r2-8")].GetProperty("extra").GetString());
        Assert.Equal(12345678901L, items[("p2", "r5-9")].GetProperty("n").GetInt64());
        Assert.Equal("[{\"k\":\"v\"}]", items[("p2", "r5-9")].GetProperty("tags").GetRawText());
        Assert.Equal([3L, 4L], RejectLines(settings).Select(reject => reject.GetProperty("loader_reject_line").GetInt64()));
        await AssertVerifyMatchesAsync(settings);
    }

    [Fact]
    public async Task A_number_a_double_would_round_is_rejected_naming_the_setting_that_keeps_its_digits_and_loads_so()
    {
        var input = _directory.File("numbers.jsonl");
        await File.WriteAllTextAsync(input, """
            {"pk":"p","id":"exact","customer_id":1,"big":1e22,"id64":9007199254740993}
            {"pk":"p","id":"rounds","customer_id":2,"big":12345678901234567890123}

            """, _cancellation);
        var table = AzuriteFixture.UniqueTableName("numbers");
        var settings = TableSettings(input, table);

        var (exit, output) = await RunAsync(settings);

        Assert.True(exit == ExitCodes.Success, output);
        var reject = Assert.Single(RejectLines(settings));
        Assert.Equal("column 'big': '12345678901234567890123' is not a number a Double holds exactly (past its range, or digits it would round); Loader:Columns:big=String keeps its digits", reject.GetProperty("loader_reject_reason").GetString());
        var stored = await AzuriteFixture.ReadTableAsync(azurite.Azurite.ConnectionString, table, _cancellation);
        Assert.Equal(1e22, stored[("p", "exact-1")].Properties["big"]);
        Assert.Equal(9007199254740993L, stored[("p", "exact-1")].Properties["id64"]); // a whole number in Int64's range stays whole

        // Typed as the reason says, the digits load as they stand.
        settings["Loader:Columns:big"] = "String";
        settings["Loader:RejectsPath"] = _directory.File("numbers-string-rejects.jsonl");
        (exit, output) = await RunAsync(settings);
        Assert.True(exit == ExitCodes.Success, output);
        stored = await AzuriteFixture.ReadTableAsync(azurite.Azurite.ConnectionString, table, _cancellation);
        Assert.Equal("12345678901234567890123", stored[("p", "rounds-2")].Properties["big"]);
    }

    [Fact]
    public async Task A_blob_prefix_of_plain_and_compressed_parts_loads_as_one_input_and_a_reject_names_its_part_and_line()
    {
        var blobs = await azurite.CreateContainerAsync(_cancellation);
        await azurite.UploadAsync(blobs, "jl/1.jsonl", BinaryData.FromString(Lines(1, 500)), "application/x-ndjson", _cancellation);
        var second = Lines(501, 700) + "{\"pk\":\"broken\"\n" + Lines(701, 1_000);
        await azurite.UploadAsync(blobs, "jl/2.ndjson.gz", BinaryData.FromBytes(Compressed.Bytes(InputCompression.Gzip, Encoding.UTF8.GetBytes(second))), "application/gzip", _cancellation);
        var table = AzuriteFixture.UniqueTableName("jlprefix");
        var settings = TableSettings($"{azurite.Azurite.BlobEndpoint}/{blobs}/jl/", table);
        settings["Loader:RowKey"] = "{id}";

        var (exit, output) = await RunAsync(settings);

        Assert.True(exit == ExitCodes.Success, output);
        var stored = await AzuriteFixture.ReadTableAsync(azurite.Azurite.ConnectionString, table, _cancellation);
        Assert.Equal(1_000, stored.Count);
        Assert.Equal("Lima", stored[("p4", "r000999")].Properties["customer_address_city"]);
        var reject = Assert.Single(RejectLines(settings));
        Assert.Equal((701L, "jl/2.ndjson.gz", 201L), (reject.GetProperty("loader_reject_line").GetInt64(), reject.GetProperty("loader_reject_file").GetString(), reject.GetProperty("loader_reject_file_line").GetInt64()));
    }

    [Fact]
    public async Task A_blob_prefix_mixing_formats_stops_at_start_with_exit_2_naming_the_first_odd_part()
    {
        var blobs = await azurite.CreateContainerAsync(_cancellation);
        await azurite.UploadAsync(blobs, "mix/1.jsonl", BinaryData.FromString(Lines(1, 10)), "application/x-ndjson", _cancellation);
        await azurite.UploadAsync(blobs, "mix/2.jsonl.zst", BinaryData.FromBytes(Compressed.Bytes(InputCompression.Zstd, Encoding.UTF8.GetBytes(Lines(11, 20)))), "application/zstd", _cancellation);
        await azurite.UploadAsync(blobs, "mix/3.csv", BinaryData.FromString("pk,id\np,1\n"), "text/csv", _cancellation);
        await azurite.UploadAsync(blobs, "mix/4.parquet", BinaryData.FromString("PAR1"), "application/octet-stream", _cancellation);
        var settings = TableSettings($"{azurite.Azurite.BlobEndpoint}/{blobs}/mix/", AzuriteFixture.UniqueTableName("mix"));
        settings["Loader:LogFormat"] = "Text";

        var (exit, output) = await RunAsync(settings);

        Assert.Equal(ExitCodes.InvalidConfiguration, exit);
        Assert.Contains("'mix/1.jsonl' is JSON Lines and 'mix/3.csv' is CSV", output, StringComparison.Ordinal);
        Assert.DoesNotContain("Exception", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_load_killed_mid_file_and_started_again_ends_with_the_table_equal_to_the_input()
    {
        const int rows = 30_000;
        var input = _directory.File("killed.jsonl");
        await File.WriteAllTextAsync(input, Lines(1, rows), _cancellation);
        var table = AzuriteFixture.UniqueTableName("jlkill");
        var settings = TableSettings(input, table);
        settings["Loader:RowKey"] = "{id}";
        settings["Loader:CheckpointPath"] = _directory.File("checkpoint.json");
        settings["Loader:CheckpointInterval"] = "00:00:01";
        settings["Loader:ProgressInterval"] = "00:00:00.2";
        settings["Loader:LogFormat"] = "Json";
        settings["Loader:MaxRowsPerSecond"] = (rows / 6).ToString(CultureInfo.InvariantCulture);

        await using (var loader = LoaderProcess.Start(settings))
        {
            await loader.WhenWrittenAsync(rows / 3, _cancellation);
            while (!File.Exists(settings["Loader:CheckpointPath"]))
            {
                Assert.False(loader.HasExited, loader.Output);
                await Task.Delay(50, _cancellation);
            }

            await loader.KillAsync();
        }

        settings.Remove("Loader:MaxRowsPerSecond");
        var (exit, output) = await RunAsync(settings);

        Assert.True(exit == ExitCodes.Success, output);
        var report = Report(settings);
        Assert.True(report.GetProperty("reconciled").GetBoolean());
        Assert.True(report.GetProperty("rowsSkipped").GetInt64() > 0, "the restart resumed from the checkpoint");
        var stored = await AzuriteFixture.ReadTableAsync(azurite.Azurite.ConnectionString, table, _cancellation);
        Assert.Equal(rows, stored.Count);
        for (var i = 1; i <= rows; i++)
        {
            var entity = stored[(string.Create(CultureInfo.InvariantCulture, $"p{i % 5}"), string.Create(CultureInfo.InvariantCulture, $"r{i:D6}"))];
            Assert.Equal((long)i, entity.Properties["n"]);
            Assert.Equal(string.Create(CultureInfo.InvariantCulture, $"row {i} é"), entity.Properties["s"]);
        }
    }

    [Fact]
    public async Task An_estimate_reads_json_lines_as_the_load_does()
    {
        var input = _directory.File("estimate.jsonl");
        await File.WriteAllTextAsync(input, Lines(1, 600) + "[1]\n", _cancellation);
        var settings = TableSettings(input, AzuriteFixture.UniqueTableName("jlestimate"));
        settings["Loader:RowKey"] = "{id}";
        settings["Loader:LogFormat"] = "Text";
        settings["Loader:Estimate:RampTime"] = "00:00:00";

        await using var estimate = LoaderProcess.Start("--estimate", settings);
        var exit = await estimate.WaitForExitAsync(s_timeout, _cancellation);

        Assert.True(exit == ExitCodes.Success, estimate.Output + estimate.Error);
        Assert.Matches(@"rows read\s+601\b", estimate.Output);
        Assert.Matches(@"rows to write\s+600\s+1 rejected", estimate.Output);
    }

    /// <summary>Objects numbered <paramref name="first"/> to <paramref name="last"/>, one per line.</summary>
    private static string Lines(int first, int last) => new StringBuilder().AppendJoin("", Enumerable.Range(first, last - first + 1).Select(i => string.Create(CultureInfo.InvariantCulture,
        $"{{\"pk\":\"p{i % 5}\",\"id\":\"r{i:D6}\",\"n\":{i},\"s\":\"row {i} \\u00e9\",\"customer\":{{\"id\":{i},\"address\":{{\"city\":\"{(i % 2 == 0 ? "Oslo" : "Lima")}\"}}}}}}\n"))).ToString();
}
