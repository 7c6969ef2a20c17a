using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;
using Loader.Worker.Tests.Parquet;
using Parquet.Schema;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// A Parquet input's rejected rows, through the real process as a user runs it, into Azurite: every place that names a
/// row (the log, the rejects file, the JSON and HTML reports, a duplicate's reason, verify's examples) names it by row
/// group and row, both 1-based; the rejects file is JSON Lines, so once fixed it loads again and the table equals the
/// input; <c>Loader:Json:Nested=Refuse</c> refuses a struct or a list at start; <c>--estimate</c> samples across row groups.
/// </summary>
public sealed class ParquetRejectsTests(AzuriteFixture azurite) : IDisposable
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(3);

    private static readonly ParquetSchema s_schema = new(
        new DataField<int>("id"),
        new DataField<string>("code", nullable: true),
        new DataField<double>("amount"),
        new DataField<string>("note", nullable: true),
        new DataField<long>("big"),
        new DataField<bool>("flag"),
        new StructField("address", new DataField<string>("city", nullable: true), new DataField<int?>("zip")),
        new ListField("tags", new DataField<string>("element", nullable: true)));

    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    /// <summary>Row <paramref name="id"/>; without its code (the row key) when <paramref name="coded"/> says so.</summary>
    private static Dictionary<string, object?> Row(int id, bool coded) => new()
    {
        ["id"] = id,
        ["code"] = coded ? $"c{id}" : null,
        ["amount"] = id + 0.25,
        ["note"] = $"row {id} é \"quoted\"",
        ["big"] = 5_000_000_000L + id,
        ["flag"] = id % 2 == 0,
        ["address"] = new Dictionary<string, object?> { ["city"] = $"city-{id % 3}", ["zip"] = 10_000 + id },
        ["tags"] = new List<ReadOnlyMemory<char>?> { "a".AsMemory(), $"t{id}".AsMemory() },
    };

    /// <summary>Rows 1 to 6 in row groups of 3: rows 2 and 5 (row group 1, row 2 and row group 2, row 2) have no code.</summary>
    private async Task<string> WriteAsync(string name, bool allCoded)
    {
        var path = _directory.File(name);
        await ParquetTestFile.WriteAsync(path, s_schema, Enumerable.Range(1, 6).Select(id => Row(id, allCoded || id % 3 != 2)), rowGroupSize: 3, _cancellation);
        return path;
    }

    private string[] Arguments(string input, string table, string name, string partitionKey = "p{address_city}", string rowKey = "{code}") =>
    [
        "--input", input, "--table", table, "--partition-key", partitionKey, "--row-key", rowKey,
        $"--Loader:Tables:ConnectionString={azurite.ConnectionString}",
        "--rejects", _directory.File($"{name}-rejects.jsonl"), "--report", _directory.File($"{name}-report.json"),
        "--html-report", _directory.File($"{name}-report.html"),
    ];

    // Row 1's key in the duplicates test: its flag (false) as key templates render a Boolean.
    private const string Row1Key = "kfalse";

    private const string EmptyKey = "row key is empty: column 'code' is empty";

    [Fact]
    public async Task Rejected_rows_are_named_by_row_group_and_row_everywhere_and_their_rejects_file_fixed_loads_again_to_the_input()
    {
        var input = await WriteAsync("orders.parquet", allCoded: false);
        var table = AzuriteFixture.UniqueTableName("pqrejects");

        await using (var load = LoaderProcess.StartWithArguments(Arguments(input, table, "first")))
        {
            Assert.True(await load.WaitForExitAsync(s_timeout, _cancellation) == ExitCodes.Success, load.Output + load.Error);
            var logged = load.LoggedMessages();
            Assert.Contains("Rejected row group 1, row 2: " + EmptyKey, logged);
            Assert.Contains("Rejected row group 2, row 2: " + EmptyKey, logged);
            Assert.DoesNotContain(logged, message => message.StartsWith("Rejected line", StringComparison.Ordinal));

            // The summary counts Parquet's rows, not lines of a header.
            Assert.Contains(logged, message => message.StartsWith("Load Completed: ", StringComparison.Ordinal) || message.Contains("rows read", StringComparison.Ordinal));
            Assert.DoesNotContain(logged, message => message.Contains("header and blank lines", StringComparison.Ordinal));
        }

        // The rejects file: each rejected row as the JSON object of its columns, its place named.
        var rejects = (await File.ReadAllLinesAsync(_directory.File("first-rejects.jsonl"), _cancellation)).Select(line => JsonNode.Parse(line)!.AsObject()).ToList();
        Assert.Equal(["row group 1, row 2", "row group 2, row 2"], rejects.Select(reject => (string?)reject["loader_reject_place"]));
        Assert.Equal([2L, 5L], rejects.Select(reject => (long)reject["loader_reject_line"]!));
        Assert.Equal([2, 5], rejects.Select(reject => (int)reject["id"]!));
        Assert.All(rejects, reject => Assert.Equal(EmptyKey, (string?)reject["loader_reject_reason"]));

        // The reports' examples name the same places.
        using (var report = JsonDocument.Parse(await File.ReadAllTextAsync(_directory.File("first-report.json"), _cancellation)))
        {
            var examples = report.RootElement.GetProperty("rejectReasons")[0].GetProperty("examples");
            Assert.Equal(["row group 1, row 2", "row group 2, row 2"], examples.EnumerateArray().Select(example => example.GetProperty("place").GetString()));
        }

        var html = await File.ReadAllTextAsync(_directory.File("first-report.html"), _cancellation);
        Assert.Contains("<span class=\"line\">row group 2, row 2</span>", html, StringComparison.Ordinal);
        Assert.DoesNotContain("<span class=\"line\">line", html, StringComparison.Ordinal);

        // Fixed as a person would (the code filled in), the rejects file loads again as JSON Lines; the Parquet INT32
        // columns are typed so, since JSON has only numbers.
        var fixedRejects = _directory.File("fixed.jsonl");
        await File.WriteAllLinesAsync(fixedRejects, rejects.Select(reject =>
        {
            reject["code"] = string.Create(CultureInfo.InvariantCulture, $"c{(int)reject["id"]!}");
            return reject.ToJsonString();
        }), _cancellation);
        // --check says what each format's columns are read from: the Parquet schema, the JSON Lines first object.
        await using (var check = LoaderProcess.StartWithArguments([.. Arguments(input, table, "check"), "--check", "--Loader:LogFormat=Text"]))
        {
            Assert.True(await check.WaitForExitAsync(s_timeout, _cancellation) == ExitCodes.Success, check.Output + check.Error);
            Assert.Contains("readable; the 9 columns of its schema fit the key templates and column types", check.Output, StringComparison.Ordinal);
        }

        await using (var check = LoaderProcess.StartWithArguments([.. Arguments(fixedRejects, table, "check"), "--check", "--Loader:LogFormat=Text"]))
        {
            Assert.True(await check.WaitForExitAsync(s_timeout, _cancellation) == ExitCodes.Success, check.Output + check.Error);
            Assert.Contains("readable; the 9 properties of its first object fit the key templates and column types (and 6 columns of a rejects file, which are not loaded)", check.Output, StringComparison.Ordinal);
        }

        await using (var replay = LoaderProcess.StartWithArguments([.. Arguments(fixedRejects, table, "replay"), "--Loader:Columns:id=Int32", "--Loader:Columns:address_zip=Int32"]))
        {
            Assert.True(await replay.WaitForExitAsync(s_timeout, _cancellation) == ExitCodes.Success, replay.Output + replay.Error);
        }

        // The table now holds what a load of the input with every code would have written, property by property.
        var reference = AzuriteFixture.UniqueTableName("pqreference");
        await using (var whole = LoaderProcess.StartWithArguments(Arguments(await WriteAsync("whole.parquet", allCoded: true), reference, "whole")))
        {
            Assert.True(await whole.WaitForExitAsync(s_timeout, _cancellation) == ExitCodes.Success, whole.Output + whole.Error);
        }

        var expected = await AzuriteFixture.ReadTableAsync(azurite.ConnectionString, reference, _cancellation);
        var stored = await AzuriteFixture.ReadTableAsync(azurite.ConnectionString, table, _cancellation);
        Assert.Equal(6, expected.Count);
        Assert.Equal(expected.Keys.Order(), stored.Keys.Order());
        foreach (var (key, entity) in expected)
        {
            Assert.Equal(Typed(entity.Properties), Typed(stored[key].Properties));
        }
    }

    [Fact]
    public async Task A_duplicate_and_a_verify_finding_name_the_rows_by_row_group_and_row()
    {
        var input = await WriteAsync("dupes.parquet", allCoded: true);
        var table = AzuriteFixture.UniqueTableName("pqdupes");
        string[] arguments = [.. Arguments(input, table, "dupes", partitionKey: "p{flag}", rowKey: "k{flag}"), "--Loader:WriteMode=Insert"];

        await using (var load = LoaderProcess.StartWithArguments(arguments))
        {
            Assert.True(await load.WaitForExitAsync(s_timeout, _cancellation) == ExitCodes.Success, load.Output + load.Error);
            Assert.Contains("Rejected row group 1, row 3: same partition and row key as row group 1, row 1; under Insert the first row stands", load.LoggedMessages());
        }

        // Row 1 (row key False) changed in the table: verify names the row it expected there by its row group and row.
        var client = new Azure.Data.Tables.TableClient(azurite.ConnectionString, table);
        await client.UpsertEntityAsync(new Azure.Data.Tables.TableEntity("pfalse", Row1Key) { ["note"] = "changed" }, Azure.Data.Tables.TableUpdateMode.Merge, _cancellation);
        await using var verify = LoaderProcess.StartWithArguments(["verify", .. arguments, "--Loader:LogFormat=Text"]);
        var exit = await verify.WaitForExitAsync(s_timeout, _cancellation);

        Assert.True(exit != ExitCodes.Success, verify.Output);
        Assert.Contains($"'pfalse' / '{Row1Key}' (row group 1, row 1): 'note' expected", verify.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_row_the_service_refuses_is_rejected_with_its_values_and_its_rejects_file_loads_again_to_the_input()
    {
        var input = await WriteAsync("refused.parquet", allCoded: true);
        var table = AzuriteFixture.UniqueTableName("pqrefused");
        var client = new Azure.Data.Tables.TableClient(azurite.ConnectionString, table);
        await client.CreateAsync(_cancellation);

        // Row 4 (row group 2, row 1) already stands in the table, so under Insert the service refuses it after it was mapped.
        await client.AddEntityAsync(new Azure.Data.Tables.TableEntity("pcity-1", "c4") { ["note"] = "there first" }, _cancellation);
        await using (var load = LoaderProcess.StartWithArguments([.. Arguments(input, table, "refused"), "--Loader:WriteMode=Insert"]))
        {
            Assert.True(await load.WaitForExitAsync(s_timeout, _cancellation) == ExitCodes.Success, load.Output + load.Error);
        }

        var reject = Assert.Single(await File.ReadAllLinesAsync(_directory.File("refused-rejects.jsonl"), _cancellation), line => line.Length > 0);
        var row = JsonNode.Parse(reject)!.AsObject();
        Assert.StartsWith("refused by the service (409", (string?)row["loader_reject_reason"], StringComparison.Ordinal);
        Assert.Equal("row group 2, row 1", (string?)row["loader_reject_place"]);
        Assert.Equal((4, "c4", 4.25, 5_000_000_004L, true, "city-1", 10_004), ((int)row["id"]!, (string?)row["code"], (double)row["amount"]!, (long)row["big"]!, (bool)row["flag"]!, (string?)row["address_city"], (int)row["address_zip"]!));
        Assert.Equal("row 4 é \"quoted\"", (string?)row["note"]);

        // The conflict resolved (the older entity removed), the rejects file loads again as JSON Lines under Insert, and
        // the table holds what a load of the input into an empty table writes, property by property.
        await client.DeleteEntityAsync("pcity-1", "c4", cancellationToken: _cancellation);
        await using (var replay = LoaderProcess.StartWithArguments([.. Arguments(_directory.File("refused-rejects.jsonl"), table, "replayed"), "--Loader:WriteMode=Insert", "--Loader:Columns:id=Int32", "--Loader:Columns:address_zip=Int32"]))
        {
            Assert.True(await replay.WaitForExitAsync(s_timeout, _cancellation) == ExitCodes.Success, replay.Output + replay.Error);
        }

        var reference = AzuriteFixture.UniqueTableName("pqrefref");
        await using (var whole = LoaderProcess.StartWithArguments(Arguments(input, reference, "reference")))
        {
            Assert.True(await whole.WaitForExitAsync(s_timeout, _cancellation) == ExitCodes.Success, whole.Output + whole.Error);
        }

        var expected = await AzuriteFixture.ReadTableAsync(azurite.ConnectionString, reference, _cancellation);
        var stored = await AzuriteFixture.ReadTableAsync(azurite.ConnectionString, table, _cancellation);
        Assert.Equal(expected.Keys.Order(), stored.Keys.Order());
        foreach (var (key, entity) in expected)
        {
            Assert.Equal(Typed(entity.Properties), Typed(stored[key].Properties));
        }
    }

    [Fact]
    public async Task Nested_refuse_stops_a_parquet_load_with_a_struct_or_list_at_start_naming_the_columns_and_the_setting()
    {
        var input = await WriteAsync("nested.parquet", allCoded: true);
        var table = AzuriteFixture.UniqueTableName("pqrefuse");

        await using var load = LoaderProcess.StartWithArguments([.. Arguments(input, table, "refuse"), "--Loader:Json:Nested=Refuse", "--Loader:LogFormat=Text"]);
        var exit = await load.WaitForExitAsync(s_timeout, _cancellation);

        Assert.True(exit == ExitCodes.InvalidConfiguration, load.Output + load.Error);
        var said = load.Output + load.Error;
        Assert.Contains("Loader:Json:Nested is Refuse, and the Parquet input has nested columns: 'address_city' is a field of the struct 'address', 'address_zip' is a field of the struct 'address', 'tags' is a LIST<STRING>", said, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", said, StringComparison.Ordinal);
        Assert.False(File.Exists(_directory.File("refuse-rejects.jsonl")) && new FileInfo(_directory.File("refuse-rejects.jsonl")).Length > 0);
    }

    [Fact]
    public async Task An_estimate_samples_a_parquet_input_across_its_row_groups_as_the_load_reads_it()
    {
        var path = _directory.File("estimate.parquet");
        await ParquetTestFile.WriteAsync(path, s_schema, Enumerable.Range(1, 3_000).Select(id => Row(id, coded: id % 1_000 != 500)), rowGroupSize: 700, _cancellation);
        var table = AzuriteFixture.UniqueTableName("pqestimate");

        await using var estimate = LoaderProcess.StartWithArguments([.. Arguments(path, table, "estimate"), "--estimate", "--sample", "1000", "--Loader:Estimate:RampTime=00:00:00", "--Loader:LogFormat=Text"]);
        var exit = await estimate.WaitForExitAsync(s_timeout, _cancellation);

        // The dry run reads all five row groups; rows 500, 1,500 and 2,500 have no code, named by row group and row. The
        // sample writes the first 1,000 rows (row groups 1 and 2), one of them rejected.
        Assert.True(exit == ExitCodes.Success, estimate.Output + estimate.Error);
        Assert.Matches(@"rows read\s+3,000\s", estimate.Output);
        Assert.Matches(@"rows to write\s+2,997\s+3 rejected", estimate.Output);
        Assert.Matches(@"partitions\s+3\s+rows each: min 999, median 999", estimate.Output);
        Assert.Matches(@"sample\s+999\s+rows written", estimate.Output);
        Assert.Contains("Rejected row group 3, row 100: " + EmptyKey, estimate.Output, StringComparison.Ordinal);
    }

    /// <summary>Each property with its value and its type, in name order, Timestamp and ETag left out.</summary>
    private static List<string> Typed(IReadOnlyDictionary<string, object> properties) =>
        [.. properties.OrderBy(property => property.Key, StringComparer.Ordinal)
            .Select(property => string.Create(CultureInfo.InvariantCulture, $"{property.Key}={property.Value} ({property.Value.GetType().Name})"))];
}
