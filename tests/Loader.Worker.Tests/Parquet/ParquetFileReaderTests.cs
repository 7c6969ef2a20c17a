using System.Numerics;
using Loader.Abstractions;
using Loader.Worker.Inputs.Compression;
using Loader.Worker.Parquet;
using Loader.Worker.Records;
using Loader.Worker.Tests.Infrastructure;
using Parquet;
using Parquet.Data;
using Parquet.File.Values.Primitives;
using Parquet.Schema;

namespace Loader.Worker.Tests.Parquet;

/// <summary>A Parquet file read as the loader reads it: its columns planned from the schema, row group by row group, typed values, damage named.</summary>
public sealed class ParquetFileReaderTests : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _folder = new();

    private static Task<ParquetFileReader> OpenAsync(string path, ParquetDecimalMode decimals = ParquetDecimalMode.String) =>
        ParquetTestFile.OpenAsync(path, decimals: decimals);

    private static Dictionary<string, TypedField> RowOf(ParquetFileReader reader, ParquetRowBatch group, int row) =>
        reader.Plan.Columns.Select((column, index) => (column.Name, Cell: group.Cell(index, row))).ToDictionary(pair => pair.Name, pair => pair.Cell);

    [Fact]
    public async Task Every_parquet_type_maps_to_its_store_type_and_struct_fields_are_named_by_their_path()
    {
        var path = _folder.File("every.parquet");
        await ParquetTestFile.WriteEveryTypeAsync(path, rows: 10, rowGroupSize: 4, _cancellation);

        await using var reader = await OpenAsync(path);

        Assert.Equal(
            [("id", ColumnType.Int32), ("flag", ColumnType.Boolean), ("small", ColumnType.Int32), ("count", ColumnType.Int32), ("big", ColumnType.Int64),
             ("unsigned", ColumnType.Int64), ("single", ColumnType.Double), ("ratio", ColumnType.Double), ("name", ColumnType.String),
             ("amount", ColumnType.String), ("precise", ColumnType.String), ("when", ColumnType.DateTime), ("day", ColumnType.DateTime),
             ("uid", ColumnType.Guid), ("blob", ColumnType.Binary), ("time", ColumnType.String), ("address.city", ColumnType.String),
             ("address.zip", ColumnType.Int32), ("tags", ColumnType.Json)],
            reader.Plan.Columns.Select(column => (column.Name, column.Type)));
        Assert.Equal(3, reader.RowGroupCount);
        Assert.Equal(10, reader.RowCount);

        using var group = reader.ReadRowGroup(1);
        Assert.Equal(5, group.FirstRecord);
        Assert.Equal(4, group.RowCount);
        var row = RowOf(reader, group, 2); // record 7
        Assert.Equal(7, row["id"].Property.AsInt32());
        Assert.False(row["flag"].Property.AsBoolean());
        Assert.Equal(-93, row["small"].Property.AsInt32());
        Assert.Equal(7000, row["count"].Property.AsInt32());
        Assert.Equal(5_000_000_007L, row["big"].Property.AsInt64());
        Assert.Equal(49L, row["unsigned"].Property.AsInt64());
        Assert.Equal(7.5, row["single"].Property.AsDouble());
        Assert.Equal(7 / 8.0, row["ratio"].Property.AsDouble());
        Assert.Equal("name-7 é", row["name"].Property.AsString());
        Assert.Equal("1241.5000", row["amount"].Property.AsString());
        Assert.Equal("123456789012345678.9012345685", row["precise"].Property.AsString());
        Assert.Equal(ParquetTestFile.BaseTime.AddMinutes(7), row["when"].Property.AsDateTime());
        Assert.Equal(new DateTime(2024, 1, 8, 0, 0, 0, DateTimeKind.Utc), row["day"].Property.AsDateTime());
        Assert.Equal(new Guid(7, 0, 0, [1, 2, 3, 4, 5, 6, 7, 8]), row["uid"].Property.AsGuid());
        Assert.Equal(new byte[] { 0, 7, 255 }, row["blob"].Property.AsBinary().ToArray());
        Assert.Equal("01:00:00.007", row["time"].Property.AsString());
        Assert.Equal("city-1", row["address.city"].Property.AsString());
        Assert.Equal(10_007, row["address.zip"].Property.AsInt32());
        Assert.Equal("""["a","t7"]""", row["tags"].Property.AsJson());
    }

    [Fact]
    public async Task A_null_in_any_column_is_no_value_and_an_empty_list_is_an_empty_array()
    {
        var path = _folder.File("nulls.parquet");
        await ParquetTestFile.WriteEveryTypeAsync(path, rows: 6, rowGroupSize: 100, _cancellation);
        await using var reader = await OpenAsync(path);
        using var group = reader.ReadRowGroup(0);

        var nulls = RowOf(reader, group, 2); // record 3
        Assert.Equal(3, nulls["id"].Property.AsInt32());
        Assert.All(nulls.Where(pair => pair.Key != "id"), pair => Assert.False(pair.Value.HasValue, $"{pair.Key} has a value"));
        Assert.All(nulls, pair => Assert.Null(pair.Value.Problem));
        Assert.Equal("[]", RowOf(reader, group, 4)["tags"].Property.AsJson());
    }

    [Fact]
    public async Task A_repeated_leaf_outside_a_list_group_is_a_json_array_empty_when_it_has_no_values_and_null_under_a_null_struct()
    {
        // The legacy form of a list (a repeated field, no LIST group), as older writers and protobuf-shaped files hold it.
        var scores = new DataField("scores", typeof(int), isNullable: false, isArray: true);
        var codes = new DataField("codes", typeof(string), isNullable: false, isArray: true);
        var id = new DataField<int>("id");
        var schema = new ParquetSchema(id, scores, new StructField("s", codes));
        var path = _folder.File("repeated.parquet");
        await using (var file = File.Create(path))
        {
            // Rows: id 1 [1,2] {codes [a,b]}; id 2 [] {codes []}; id 3 [3] s null. Levels as the format spells them: a
            // repeated field defined where it has a value, one level below where it is empty, further down where s is null.
            await using var writer = await ParquetWriter.CreateAsync(schema, file, cancellationToken: _cancellation);
            using var rows = writer.CreateRowGroup();
            await rows.WriteAsync<int>(id, new[] { 1, 2, 3 }, cancellationToken: _cancellation);
            await rows.WriteAllPartsAsync<int>(scores, new[] { 1, 2, 3 }, new[] { 1, 1, 0, 1 }, new[] { 0, 1, 0, 0 }, _cancellation);
            await rows.WriteAllPartsAsync<ReadOnlyMemory<char>>(codes, new[] { "a".AsMemory(), "b".AsMemory() }, new[] { 2, 2, 1, 0 }, new[] { 0, 1, 0, 0 }, _cancellation);
            rows.CompleteValidate();
        }

        await using var reader = await OpenAsync(path);
        using var group = reader.ReadRowGroup(0);

        Assert.Equal([("id", "INT(32,signed)"), ("scores", "LIST<INT(32,signed)>"), ("s.codes", "LIST<STRING>")], reader.Plan.Columns.Select(column => (column.Name, column.ParquetType)));
        Assert.Equal("[1,2]", RowOf(reader, group, 0)["scores"].Property.AsJson());
        Assert.Equal("""["a","b"]""", RowOf(reader, group, 0)["s.codes"].Property.AsJson());
        Assert.Equal("[]", RowOf(reader, group, 1)["scores"].Property.AsJson());
        Assert.Equal("[]", RowOf(reader, group, 1)["s.codes"].Property.AsJson());
        Assert.Equal("[3]", RowOf(reader, group, 2)["scores"].Property.AsJson());
        Assert.False(RowOf(reader, group, 2)["s.codes"].HasValue);
    }

    [Fact]
    public async Task Decimal_as_double_writes_values_a_double_holds_and_refuses_one_it_would_round()
    {
        var amount = new DecimalDataField("amount", 38, 2, isNullable: true, clrType: typeof(BigDecimal));
        var path = _folder.File("decimals.parquet");
        await ParquetTestFile.WriteAsync(path, new ParquetSchema(amount),
            [
                new() { ["amount"] = new BigDecimal(new BigInteger(1250), 38, 2) },
                new() { ["amount"] = new BigDecimal(BigInteger.Parse("1234567890123456789", System.Globalization.CultureInfo.InvariantCulture), 38, 2) },
            ],
            rowGroupSize: 10, _cancellation);

        await using var reader = await OpenAsync(path, ParquetDecimalMode.Double);
        using var group = reader.ReadRowGroup(0);

        Assert.Equal(ColumnType.Double, Assert.Single(reader.Plan.Columns).Type);
        Assert.Equal(12.5, group.Cell(0, 0).Property.AsDouble());
        var refused = group.Cell(0, 1);
        Assert.False(refused.HasValue);
        Assert.Equal("column 'amount' holds 12345678901234567.89, which a Double would round to 12345678901234568 (Loader:Parquet:Decimal is Double; String keeps every digit)", refused.Problem);
    }

    [Fact]
    public async Task An_unsigned_64_bit_value_past_int64_is_refused_not_wrapped()
    {
        var path = _folder.File("unsigned.parquet");
        await ParquetTestFile.WriteAsync(path, new ParquetSchema(new DataField<ulong>("n")), [new() { ["n"] = ulong.MaxValue }], 10, _cancellation);
        await using var reader = await OpenAsync(path);
        using var group = reader.ReadRowGroup(0);

        Assert.Equal("column 'n' holds 18446744073709551615, past the largest Int64 (9223372036854775807)", group.Cell(0, 0).Problem);
    }

    [Fact]
    public async Task A_column_no_store_type_holds_is_refused_at_open_naming_it_and_its_type()
    {
        var path = _folder.File("interval.parquet");
        var schema = new ParquetSchema(new DataField<int>("id"), new DataField<Interval>("wait"), new MapField("attributes", new DataField<string>("key", nullable: false), new DataField<string>("value")));
        await ParquetTestFile.WriteAsync(path, schema, [new() { ["id"] = 1, ["wait"] = new Interval(1, 2, 3), ["attributes"] = new Dictionary<ReadOnlyMemory<char>, ReadOnlyMemory<char>?> { ["a".AsMemory()] = "b".AsMemory() } }], 10, _cancellation);

        var failure = await Assert.ThrowsAsync<InputHeaderException>(() => OpenAsync(path));

        // The map of single values is written as a JSON object; INTERVAL alone is refused.
        Assert.Equal("'interval.parquet' has a column the loader cannot write: 'wait' is INTERVAL, which no store type holds.", failure.Message);
    }

    [Fact]
    public async Task A_file_whose_footer_is_cut_off_is_damaged_naming_the_file_and_its_footer()
    {
        var path = _folder.File("whole.parquet");
        await ParquetTestFile.WriteEveryTypeAsync(path, rows: 10, rowGroupSize: 4, _cancellation);
        var truncated = ParquetTestFile.Truncated(path, 100);

        var failure = await Assert.ThrowsAsync<DamagedInputException>(() => OpenAsync(truncated));

        Assert.Equal(Path.GetFileName(truncated), failure.Part);
        Assert.StartsWith($"'{Path.GetFileName(truncated)}' cannot be read as Parquet: its footer (the last bytes of its ", failure.Message);
        Assert.EndsWith("No row of it was read.", failure.Message);
    }

    [Fact]
    public async Task A_damaged_page_in_row_group_2_is_damage_naming_the_row_group_after_row_group_1_was_read()
    {
        var (corrupted, offset) = await ParquetTestFile.WriteDamagedRowGroup2Async(_folder.File("pages.parquet"), _cancellation);
        await using var reader = await OpenAsync(corrupted);

        using (var first = reader.ReadRowGroup(0))
        {
            Assert.Equal(4, first.Cell(0, 3).Property.AsInt32());
        }

        var failure = Assert.Throws<DamagedInputException>(() => reader.ReadRowGroup(1));
        Assert.Equal(offset, failure.Offset);
        Assert.StartsWith($"'{Path.GetFileName(corrupted)}' row group 2 of 3 (rows 5 to 8) cannot be read: column 'id' is damaged (", failure.Message);
        using var third = reader.ReadRowGroup(2);
        Assert.Equal(12, third.Cell(0, 3).Property.AsInt32());
    }

    /// <summary>
    /// A byte changed inside a page's values decodes as another value unless the page carries a checksum: Spark's and
    /// parquet-mr's pages do, and a page whose checksum fails is damage, never a row loaded with other values.
    /// </summary>
    [Fact]
    public async Task A_page_whose_checksum_fails_is_damage_not_other_values()
    {
        var path = _folder.File("checked.parquet");
        using (var builder = new ParquetSharp.WriterPropertiesBuilder())
        {
            using var properties = builder.Compression(ParquetSharp.Compression.Uncompressed).DisableDictionary().EnablePageChecksum().Build();
            using var writer = new ParquetSharp.ParquetFileWriter(path, [new ParquetSharp.Column<int>("id")], properties);
            using (var group = writer.AppendRowGroup())
            using (var column = group.NextColumn().LogicalWriter<int>())
            {
                column.WriteBatch(Enumerable.Range(0, 1000).ToArray());
            }

            writer.Close();
        }

        await using (var intact = await OpenAsync(path))
        {
            using var rows = intact.ReadRowGroup(0);
            Assert.Equal(500, rows.Cell(0, 500).Property.AsInt32());
        }

        // Past the magic and the page's header: a byte of the plain INT32 values (rows 200 to 299 start at byte 804 of them).
        var corrupted = ParquetTestFile.Corrupted(path, 1000, 1);
        await using var reader = await OpenAsync(corrupted);

        var failure = Assert.Throws<DamagedInputException>(() => reader.ReadRowGroup(0));
        Assert.StartsWith($"'{Path.GetFileName(corrupted)}' row group 1 of 1 (rows 1 to 1,000) cannot be read: column 'id' is damaged (", failure.Message);
    }

    [Theory]
    [InlineData(1, 1, 1)]
    [InlineData(4, 1, 4)]
    [InlineData(5, 2, 1)]
    [InlineData(10, 3, 2)]
    public async Task A_record_is_located_by_row_group_and_row(long record, int rowGroup, long row)
    {
        var path = _folder.File("locate.parquet");
        await ParquetTestFile.WriteEveryTypeAsync(path, rows: 10, rowGroupSize: 4, _cancellation);
        await using var reader = await OpenAsync(path);

        Assert.Equal(new ParquetRowPosition(rowGroup, row), reader.Locate(record));
        Assert.Equal($"row group {rowGroup}, row {row}", reader.Locate(record).ToString());
    }

    public void Dispose() => _folder.Dispose();
}
