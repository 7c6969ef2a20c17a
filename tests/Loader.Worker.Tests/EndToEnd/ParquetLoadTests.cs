using System.Globalization;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;
using Loader.Worker.Tests.Parquet;
using Loader.Worker.Tests.Storage.Blobs;
using Parquet.Schema;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// Parquet input end to end on Azurite through the real host, read back from the table: every mapped type as its store
/// type, a null in every column left out, several row groups, struct fields flattened, a list as its JSON; a damaged row
/// group stops the load with exit 7 after the row groups before it were written; verify finds the table as the load left it.
/// </summary>
public sealed class ParquetLoadTests(BlobAzuriteFixture azurite) : IClassFixture<BlobAzuriteFixture>, IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private Dictionary<string, string?> Settings(string input, string table) => new()
    {
        ["Loader:Input"] = input,
        ["Loader:Blob:ConnectionString"] = azurite.Azurite.ConnectionString,
        ["Loader:Blob:ReadBlockSize"] = (64 * 1024).ToString(CultureInfo.InvariantCulture),
        ["Loader:Tables:ConnectionString"] = azurite.Azurite.ConnectionString,
        ["Loader:Tables:Table"] = table,
        ["Loader:PartitionKey"] = "p{small}",
        ["Loader:RowKey"] = "{id}",
        ["Loader:RejectsPath"] = _directory.File($"{table}-rejects.csv"),
    };

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Every_mapped_type_round_trips_into_table_storage_from_a_file_or_a_blob(bool blob)
    {
        var path = _directory.File("every.parquet");
        await ParquetTestFile.WriteEveryTypeAsync(path, rows: 10, rowGroupSize: 4, _cancellation);
        var input = path;
        if (blob)
        {
            var container = await azurite.CreateContainerAsync(_cancellation);
            await azurite.UploadAsync(container, "in/every.parquet", BinaryData.FromBytes(await File.ReadAllBytesAsync(path, _cancellation)), "application/octet-stream", _cancellation);
            input = $"{azurite.Azurite.BlobEndpoint}/{container}/in/every.parquet";
        }

        var table = AzuriteFixture.UniqueTableName("parquet");
        var settings = Settings(input, table);
        settings["Loader:PartitionKey"] = "p{id}";
        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.Success, run.ExitCode);
        var report = run.RequireReport();
        Assert.Equal((10L, 10L, 0L), (report.RowsRead, report.RowsWritten, report.RowsRejected));
        var stored = await AzuriteFixture.ReadTableAsync(azurite.Azurite.ConnectionString, table, _cancellation);
        Assert.Equal(10, stored.Count);
        var row = stored[("p7", "7")].Properties;
        Assert.Equal(7, row["id"]);
        Assert.Equal(false, row["flag"]);
        Assert.Equal(-93, row["small"]);
        Assert.Equal(7000, row["count"]);
        Assert.Equal(5_000_000_007L, row["big"]);
        Assert.Equal(49L, row["unsigned"]);
        Assert.Equal(7.5, row["single"]);
        Assert.Equal(0.875, row["ratio"]);
        Assert.Equal("name-7 é", row["name"]);
        Assert.Equal("1241.5000", row["amount"]);
        Assert.Equal("123456789012345678.9012345685", row["precise"]);
        Assert.Equal(ParquetTestFile.BaseTime.AddMinutes(7), ToUtc(row["when"]));
        Assert.Equal(new DateTime(2024, 1, 8, 0, 0, 0, DateTimeKind.Utc), ToUtc(row["day"]));
        Assert.Equal(new Guid(7, 0, 0, [1, 2, 3, 4, 5, 6, 7, 8]), row["uid"]);
        Assert.Equal(new byte[] { 0, 7, 255 }, row["blob"]);
        Assert.Equal("01:00:00.007", row["time"]);
        Assert.Equal("city-1", row["address_city"]);
        Assert.Equal(10_007, row["address_zip"]);
        Assert.Equal("""["a","t7"]""", row["tags"]);
        Assert.Equal(["id"], stored[("p3", "3")].Properties.Keys);
        Assert.Equal("[]", stored[("p5", "5")].Properties["tags"]);

        // verify reads the Parquet input through the same reader and finds every row as the load left it.
        var verified = await VerifyRunner.RunAsync(settings, _cancellation);
        Assert.True(verified.ExitCode == ExitCodes.Success, verified.Summary);
        Assert.Equal((10L, 0L, 0L), (verified.RequireReport().RowsMatching, verified.RequireReport().RowsMissing, verified.RequireReport().RowsDifferent));
    }

    [Fact]
    public async Task A_key_of_typed_parts_is_their_text_however_long_and_a_null_part_rejects_the_row_naming_its_column()
    {
        var path = _directory.File("keys.parquet");
        await ParquetTestFile.WriteEveryTypeAsync(path, rows: 10, rowGroupSize: 4, _cancellation);
        var table = AzuriteFixture.UniqueTableName("parquetkeys");
        var settings = Settings(path, table);
        var filler = new string('k', 300); // longer than the key's buffer on the stack: the key is written again into a larger one
        settings["Loader:PartitionKey"] = "p{id}";
        settings["Loader:RowKey"] = "{id}-{ratio}-{name}-" + filler + "-{big}-{uid}";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.Success, run.ExitCode);
        var report = run.RequireReport();
        Assert.Equal((10L, 9L, 1L), (report.RowsRead, report.RowsWritten, report.RowsRejected));
        var stored = await AzuriteFixture.ReadTableAsync(azurite.Azurite.ConnectionString, table, _cancellation);
        var uid = new Guid(7, 0, 0, [1, 2, 3, 4, 5, 6, 7, 8]);
        Assert.Contains(("p7", $"7-0.875-name-7 é-{filler}-5000000007-{uid:D}"), stored.Keys);
        Assert.Contains("column 'ratio' is empty", await File.ReadAllTextAsync(_directory.File($"{table}-rejects.csv"), _cancellation), StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_list_of_structs_and_a_map_written_by_parquet_net_load_as_the_json_they_spell()
    {
        // The DuckDB round trip covers nesting as DuckDB writes it; Parquet.Net's writer marks its groups otherwise.
        var schema = new ParquetSchema(
            new DataField<int>("id"),
            new ListField("lines", new StructField("element", new DataField<string>("sku", nullable: true), new DataField<int?>("qty"))),
            new MapField("attrs", new DataField<string>("key", nullable: false), new DataField<int?>("value")));
        var rows = Enumerable.Range(1, 6).Select(id => new Dictionary<string, object?>
        {
            ["id"] = id,
            ["lines"] = id == 2 ? null : id == 3 ? new List<Dictionary<string, object?>>() : new List<Dictionary<string, object?>> { new() { ["sku"] = $"s{id}", ["qty"] = id }, new() { ["sku"] = null, ["qty"] = null } },
            ["attrs"] = new Dictionary<ReadOnlyMemory<char>, int?> { ["a".AsMemory()] = id, ["b".AsMemory()] = null },
        });
        var path = _directory.File("nested.parquet");
        await ParquetTestFile.WriteAsync(path, schema, rows, rowGroupSize: 4, _cancellation);
        var table = AzuriteFixture.UniqueTableName("pqnested");
        var settings = Settings(path, table);
        settings["Loader:PartitionKey"] = "p{id}";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.Success, run.ExitCode);
        var stored = await AzuriteFixture.ReadTableAsync(azurite.Azurite.ConnectionString, table, _cancellation);
        Assert.Equal(6, stored.Count);
        Assert.Equal("""[{"sku":"s5","qty":5},{"sku":null,"qty":null}]""", stored[("p5", "5")].Properties["lines"]);
        Assert.False(stored[("p2", "2")].Properties.ContainsKey("lines"));
        Assert.Equal("[]", stored[("p3", "3")].Properties["lines"]);
        Assert.All(Enumerable.Range(1, 6), id => Assert.Equal($$"""{"a":{{id}},"b":null}""", stored[($"p{id}", $"{id}")].Properties["attrs"]));
    }

    [Fact]
    public async Task A_damaged_row_group_is_exit_7_naming_it_after_the_row_groups_before_it_were_written()
    {
        var (damaged, _) = await ParquetTestFile.WriteDamagedRowGroup2Async(_directory.File("pages.parquet"), _cancellation);
        var table = AzuriteFixture.UniqueTableName("damaged");
        var settings = Settings(damaged, table);
        settings["Loader:PartitionKey"] = "p{id}";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.InputDamaged, run.ExitCode);
        Assert.Contains("row group 2 of 3 (rows 5 to 8) cannot be read", run.RequireReport().Message, StringComparison.Ordinal);
        var stored = await AzuriteFixture.ReadTableAsync(azurite.Azurite.ConnectionString, table, _cancellation);
        Assert.Equal(["1", "2", "3", "4"], stored.Keys.Select(key => key.Item2).Order(StringComparer.Ordinal));
    }

    [Fact]
    public async Task A_file_whose_footer_is_cut_off_is_exit_7_naming_the_file_and_a_column_no_store_holds_is_exit_2()
    {
        var path = _directory.File("cut.parquet");
        await ParquetTestFile.WriteEveryTypeAsync(path, rows: 10, rowGroupSize: 4, _cancellation);
        var truncated = ParquetTestFile.Truncated(path, 100);

        var cut = await LoaderRunner.RunAsync(Settings(truncated, AzuriteFixture.UniqueTableName("cut")), _cancellation);

        Assert.Equal(ExitCodes.InputDamaged, cut.ExitCode);
        Assert.Contains($"'{Path.GetFileName(truncated)}' cannot be read as Parquet: its footer", cut.Error + cut.RequireReport().Message, StringComparison.Ordinal);

        var settings = Settings(path, AzuriteFixture.UniqueTableName("typed"));
        settings["Loader:Columns:ratio"] = "Int32";
        var refused = await LoaderRunner.RunAsync(settings, _cancellation);
        Assert.Equal(ExitCodes.InvalidConfiguration, refused.ExitCode);
        Assert.Contains("Loader:Columns:ratio asks for Int32, but the Parquet column is DOUBLE (read as Double)", refused.Error + refused.RequireReport().Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Decimal_as_double_writes_a_number_and_rejects_a_value_a_double_would_round_naming_row_group_row_and_column()
    {
        var path = _directory.File("decimals.parquet");
        await ParquetTestFile.WriteEveryTypeAsync(path, rows: 6, rowGroupSize: 4, _cancellation);
        var table = AzuriteFixture.UniqueTableName("decimal");
        var settings = Settings(path, table);
        settings["Loader:PartitionKey"] = "p{id}";
        settings["Loader:Parquet:Decimal"] = "Double";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        // 'precise' (38 digits) rounds in every row that has one; row 3 holds nulls only and loads, 'amount' a Double.
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal((6L, 1L, 5L), (run.RequireReport().RowsRead, run.RequireReport().RowsWritten, run.RequireReport().RowsRejected));
        var stored = await AzuriteFixture.ReadTableAsync(azurite.Azurite.ConnectionString, table, _cancellation);
        Assert.Equal(["id"], stored[("p3", "3")].Properties.Keys);
        var rejects = await File.ReadAllTextAsync(settings["Loader:RejectsPath"]!, _cancellation);
        Assert.Contains("row group 2, row 2: column 'precise' holds 123456789012345678.9012345684, which a Double would round to ", rejects, StringComparison.Ordinal);
    }

    private static DateTime ToUtc(object value) => value switch
    {
        DateTimeOffset at => at.UtcDateTime,
        DateTime at => at.ToUniversalTime(),
        _ => throw new InvalidOperationException($"not a date: {value}"),
    };
}
