using System.Globalization;
using System.Text;
using Loader.Abstractions;
using Loader.Worker.Backends.Cosmos;
using Loader.Worker.Backends.Tables;
using Loader.Worker.Hosting;
using Loader.Worker.JsonLines;
using CsvHelper;
using Loader.Worker.Csv;
using Loader.Worker.Inputs;
using Loader.Worker.Mapping;
using Loader.Worker.Tests.Infrastructure;
using Loader.Worker.Records;

namespace Loader.Worker.Tests.Mapping;

/// <summary>Mapping against the Tables adapter's real rules (no connection is made: the adapter is only asked about entities).</summary>
public sealed class EntityMapperTests
{
    private static readonly TablesAdapter s_rules = new(
        new Azure.Data.Tables.TableClient(TablesOptions.DevelopmentStorage, "rules"), createTable: false, TimeProvider.System);

    private static EntityMapper Mapper(string[] header, Dictionary<string, ColumnType>? types = null, string culture = "") =>
        new(
            MappingPlan.Create(header, KeyTemplate.Parse("{pk}"), KeyTemplate.Parse("{rk}"), types ?? [], s_rules),
            s_rules,
            new ColumnConverter(string.IsNullOrEmpty(culture) ? CultureInfo.InvariantCulture : CultureInfo.GetCultureInfo(culture)));

    /// <summary>What a mapping plan finds wrong with a header and settings, <c>{pk}</c> the partition key.</summary>
    private static string HeaderProblems(string[] header, string rowKey, Dictionary<string, ColumnType> types) =>
        Assert.Throws<InputHeaderException>(() => MappingPlan.Create(header, KeyTemplate.Parse("{pk}"), KeyTemplate.Parse(rowKey), types, s_rules)).Message;

    /// <summary>A real reader standing on the one record after a header, as the read stage hands it to the mapper.</summary>
    private static MapResult MapOne(EntityMapper mapper, string[] header, params string[] fields)
    {
        var text = CsvText.Line(header, ',') + "\n" + CsvText.Line(fields, ',') + "\n";
        using var reader = CsvReader.Create(Encoding.UTF8.GetBytes(text), new CsvReaderOptions { Separator = ',', TrackLineNumbers = true });
        Assert.True(reader.Read());
        return mapper.Map(new CsvFields(reader));
    }

    [Fact]
    public void Types_columns_and_omits_empty_cells()
    {
        string[] header = ["pk", "rk", "n", "big", "d", "b", "when", "id", "s", "empty"];
        var mapper = Mapper(
            header,
            new() { ["n"] = ColumnType.Int32, ["big"] = ColumnType.Int64, ["d"] = ColumnType.Double, ["b"] = ColumnType.Boolean, ["when"] = ColumnType.DateTime, ["id"] = ColumnType.Guid });

        var result = MapOne(mapper, header, "p", "r", "42", "9000000000", "2.5", "true", "2024-03-01T10:00:00Z", "0f8fad5b-d9cb-469f-a165-70867728950e", "text", "");

        var entity = Assert.IsType<LoadEntity>(result.Entity);
        Assert.Equal("p", entity.PartitionKey);
        Assert.Equal("r", entity.RowKey);
        var values = entity.Properties.ToDictionary(p => p.Name, p => p.Value);
        Assert.Equal(42, values["n"]);
        Assert.Equal(9_000_000_000L, values["big"]);
        Assert.Equal(2.5, values["d"]);
        Assert.Equal(true, values["b"]);
        Assert.Equal(new DateTime(2024, 3, 1, 10, 0, 0, DateTimeKind.Utc), values["when"]);
        Assert.Equal(DateTimeKind.Utc, ((DateTime)values["when"]).Kind);
        Assert.Equal(Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e"), values["id"]);
        Assert.Equal("text", values["s"]);
        Assert.False(values.ContainsKey("empty"));
        Assert.True(entity.PayloadBytes > 0);
        Assert.Equal(new RowOrigin(1, 2), entity.Origin);
        Assert.Equal("p,r,42,9000000000,2.5,true,2024-03-01T10:00:00Z,0f8fad5b-d9cb-469f-a165-70867728950e,text,", Encoding.UTF8.GetString(entity.SourceRecord.Span));
    }

    [Fact]
    public void Parses_numbers_in_the_configured_culture()
    {
        var mapper = Mapper(["pk", "rk", "d"], new() { ["d"] = ColumnType.Double }, "de-DE");

        var entity = MapOne(mapper, ["pk", "rk", "d"], "p", "r", "1234,5").Entity!;
        var grouped = MapOne(mapper, ["pk", "rk", "d"], "p", "r", "1.234,5");

        Assert.Equal(1234.5, entity.Properties.Single(p => p.Name == "d").Value);
        Assert.StartsWith("column 'd': '1.234,5' is not a valid Double in culture de-DE: it holds the group separator '.'", grouped.RejectReason, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("abc", "column 'n': 'abc' is not a valid Int32 in the invariant culture")]
    [InlineData("3000000000", "column 'n': '3000000000' is out of range for Int32")]
    public void Rejects_a_value_that_does_not_parse_naming_the_column(string value, string reason)
    {
        var mapper = Mapper(["pk", "rk", "n"], new() { ["n"] = ColumnType.Int32 });

        var result = MapOne(mapper, ["pk", "rk", "n"], "p", "r", value);

        Assert.Equal(reason, result.RejectReason);
        Assert.Equal("p,r," + value, result.RecordText);
    }

    [Fact]
    public void Rejects_empty_keys_naming_the_column()
    {
        var mapper = Mapper(["pk", "rk"]);

        Assert.Equal("partition key is empty: column 'pk' is empty", MapOne(mapper, ["pk", "rk"], "", "r").RejectReason);
        Assert.Equal("row key is empty: column 'rk' is empty", MapOne(mapper, ["pk", "rk"], "p", "").RejectReason);
    }

    [Fact]
    public void System_property_columns_feed_templates_but_are_not_written()
    {
        var plan = MappingPlan.Create(["PartitionKey", "RowKey", "Timestamp", "v"], KeyTemplate.Parse("{PartitionKey}"), KeyTemplate.Parse("{RowKey}"), new Dictionary<string, ColumnType>(), s_rules);

        Assert.Equal(["v"], plan.Columns.Select(c => c.Name));
    }

    [Fact]
    public void A_rejects_file_read_back_loads_its_rows_own_columns_and_none_of_the_loaders()
    {
        string[] header = ["pk", "rk", "n", .. RejectsFile.ReservedColumns];
        var mapper = Mapper(header, new() { ["n"] = ColumnType.Int32 });

        var result = MapOne(mapper, header, "p", "r", "7", "column 'n': 'x' is not a valid Int32", "12", "in.csv", "12", "", "12");

        var entity = Assert.IsType<LoadEntity>(result.Entity);
        Assert.Equal(["pk", "rk", "n"], entity.Properties.Select(p => p.Name.ToString()));
        Assert.Equal(7, entity.Properties[2].Value);
    }

    [Fact]
    public void A_row_kept_as_its_text_whose_columns_are_still_empty_is_rejected_again_saying_where_its_text_is()
    {
        string[] header = ["pk", "rk", .. RejectsFile.ReservedColumns];
        var mapper = Mapper(header);

        var unfixed = MapOne(mapper, header, "", "", "has 3 fields, the header has 2", "5", "in.csv", "5", "p,r,extra", "5");
        var fixedByHand = MapOne(mapper, header, "p", "r", "has 3 fields, the header has 2", "5", "in.csv", "5", "p,r,extra", "5");

        Assert.Equal("the record could not be split into the input's columns when it was rejected: its columns are empty and its text is in column 'loader_reject_record'; copy its values into the columns to load it", unfixed.RejectReason);
        Assert.False(unfixed.Unsplit); // a row of the rejects file, split as any: rejected again, it keeps its columns and text
        Assert.NotNull(fixedByHand.Entity);
    }

    [Fact]
    public void Settings_that_name_a_rejects_files_own_column_are_refused_saying_it_is_never_loaded()
    {
        var message = HeaderProblems(["pk", "rk", .. RejectsFile.ReservedColumns], "{rk}-{loader_reject_line}", new Dictionary<string, ColumnType> { ["loader_reject_input_line"] = ColumnType.Int64 });

        Assert.Contains("Loader:Columns:loader_reject_input_line gives a type to column 'loader_reject_input_line', which is a column the rejects file adds: the loader reserves its name and never loads it", message, StringComparison.Ordinal);
        Assert.Contains("Loader:RowKey '{rk}-{loader_reject_line}' uses column 'loader_reject_line', which is a column the rejects file adds", message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_record_with_bytes_that_are_not_text_is_rejected_unsplit()
    {
        var mapper = Mapper(["pk", "rk", "s"]);
        using var reader = CsvReader.Create([.. "pk,rk,s\np,r,caf"u8, 0xC3, 0x28, .. "\n"u8], new CsvReaderOptions { Separator = ',', TrackLineNumbers = true });
        Assert.True(reader.Read());

        var result = mapper.Map(new CsvFields(reader));

        Assert.Equal("column 's' holds bytes that are not valid UTF-8", result.RejectReason);
        Assert.True(result.Unsplit);
    }

    private sealed class MapWith(EntityMapper mapper) : IRecordMapper<MapResult>
    {
        public MapResult Map<TRecord>(in TRecord record)
            where TRecord : struct, IRecordFields => mapper.Map(record);
    }

    [Fact]
    public void A_json_line_with_bytes_that_are_not_text_names_the_property_or_says_its_name_holds_them()
    {
        byte[] text = [.. "{\"pk\":\"p\",\"rk\":\"r\"}\n{\"pk\":\"p\",\"rk\":\"r\",\"x"u8, 0xFF, .. "\":1}\n{\"pk\":\"p\",\"rk\":\"r\",\"y\":\"caf"u8, 0xC3, 0x28, .. "\"}\n"u8];
        using var reader = JsonLinesReader.Open(new MemoryStream(text), new JsonLinesSettings("_", KeepsJson: false, RefuseNested: false, MaxLineBytes: 1 << 20));

        var results = reader.ReadAll(new MapWith(Mapper(["pk", "rk"])), 1).Select(result => result.Value).ToList();

        Assert.Equal([null, "a property name holds bytes that are not valid UTF-8", "property 'y' holds bytes that are not valid UTF-8"], results.Select(result => result.RejectReason));
        Assert.True(results[1].Unsplit);
    }

    [Fact]
    public void Json_properties_that_each_row_names_anew_keep_their_values_without_growing_the_name_registry_past_its_limit()
    {
        const int rows = 40_000;
        var text = new StringBuilder("{\"pk\":\"p\",\"rk\":\"r\"}\n");
        for (var i = 1; i <= rows; i++)
        {
            text.Append(CultureInfo.InvariantCulture, $"{{\"pk\":\"p\",\"rk\":\"r{i}\",\"x_{i}_{Guid.NewGuid():N}\":\"v{i}\",\"n_{i}_{Guid.NewGuid():N}\":{i}}}\n");
        }

        using var reader = JsonLinesReader.Open(new MemoryStream(Encoding.UTF8.GetBytes(text.ToString())), new JsonLinesSettings("_", KeepsJson: false, RefuseNested: false, MaxLineBytes: 1 << 20));
        var before = PropertyName.RegisteredCount;

        var results = reader.ReadAll(new MapWith(Mapper(["pk", "rk"])), 1).Select(result => result.Value).ToList();

        // Each row brought two names no other row has: at most the registry's room for row names was registered.
        Assert.InRange(PropertyName.RegisteredCount - before, 0, PropertyName.RowNamesRegistered);
        Assert.All(results.Skip(1).Select((result, index) => (result, row: index + 1)), pair =>
        {
            var extras = pair.result.Entity!.Properties.Where(property => property.Name is not ("pk" or "rk")).OrderBy(property => property.Name, StringComparer.Ordinal).ToList();
            Assert.Equal(2, extras.Count);
            Assert.StartsWith($"n_{pair.row}_", extras[0].Name, StringComparison.Ordinal);
            Assert.Equal(pair.row, extras[0].AsInt64());
            Assert.StartsWith($"x_{pair.row}_", extras[1].Name, StringComparison.Ordinal);
            Assert.Equal($"v{pair.row}", extras[1].AsString());
        });
    }

    [Fact]
    public void Header_problems_are_all_reported_with_their_columns()
    {
        var message = HeaderProblems(["pk", "rk", "pk", "bad name", ""], "{rk}-{flight}", new Dictionary<string, ColumnType> { ["ghost"] = ColumnType.Int32 });

        Assert.Contains("columns 1 and 3 are both named 'pk'", message, StringComparison.Ordinal);
        Assert.Contains("column 4 'bad name' is not a valid property name", message, StringComparison.Ordinal);
        Assert.Contains("column 5 has no name", message, StringComparison.Ordinal);
        Assert.Contains("Loader:Columns:ghost gives a type to column 'ghost'", message, StringComparison.Ordinal);
        Assert.Contains("Loader:RowKey '{rk}-{flight}' uses column 'flight'", message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_typed_or_templated_column_the_header_lacks_is_named_with_the_column_meant()
    {
        var message = HeaderProblems(["pk", "rk", "n", "carrier"], "{rk}-{carier}", new Dictionary<string, ColumnType> { ["N"] = ColumnType.Int32, ["count"] = ColumnType.Int32 });

        Assert.Contains("Loader:Columns:N gives a type to column 'N', which the header does not have (did you mean 'n'?)", message, StringComparison.Ordinal);
        Assert.Contains("Loader:Columns:count gives a type to column 'count', which the header does not have" + Environment.NewLine, message, StringComparison.Ordinal);
        Assert.Contains("Loader:RowKey '{rk}-{carier}' uses column 'carier', which the header does not have (did you mean 'carrier'?)", message, StringComparison.Ordinal);
        Assert.EndsWith("Header columns: 'pk', 'rk', 'n', 'carrier'", message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(nameof(InputFormat.JsonLines), "which the first object does not have", "First object's properties: 'pk', 'rk', 'n'")]
    [InlineData(nameof(InputFormat.Parquet), "which the schema does not have", "Schema columns: 'pk', 'rk', 'n'")]
    public void A_column_missing_from_json_lines_or_parquet_is_named_with_what_holds_the_columns(string format, string missing, string list)
    {
        var message = Assert.Throws<InputHeaderException>(() => MappingPlan.Create(
            ["pk", "rk", "n"], [KeyTemplate.Parse("{pk}")], [], KeyTemplate.Parse("{rk}-{m}"), new Dictionary<string, ColumnType>(), s_rules, format: Enum.Parse<InputFormat>(format))).Message;

        Assert.Contains($"Loader:RowKey '{{rk}}-{{m}}' uses column 'm', {missing}", message, StringComparison.Ordinal);
        Assert.EndsWith(list, message, StringComparison.Ordinal);
        Assert.DoesNotContain("header", message, StringComparison.OrdinalIgnoreCase);
    }


    /// <summary>The Cosmos DB adapter's real rules on <paramref name="configure"/>'s keys: made, never connected.</summary>
    private static CosmosAdapter CosmosRules(Action<CosmosOptions> configure)
    {
        var options = new CosmosOptions { ConnectionString = "AccountEndpoint=https://localhost:8081/;AccountKey=C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==;", Database = "d", Container = "c" };
        configure(options);
        return BackendFactory.CreateCosmos(options, 1, TimeSpan.FromSeconds(1), TimeProvider.System);
    }

    [Fact]
    public async Task A_hierarchical_key_joins_its_levels_and_names_the_level_of_an_empty_or_unjoinable_value()
    {
        await using var rules = CosmosRules(options => options.PartitionKeyPaths = "/origin,/dest");
        string[] header = ["origin", "dest", "flight"];
        var mapper = new EntityMapper(
            MappingPlan.Create(header, [KeyTemplate.Parse("{origin}"), KeyTemplate.Parse("to-{dest}")], ["/origin", "/dest"], KeyTemplate.Parse("{flight}"), new Dictionary<string, ColumnType>(), rules),
            rules,
            new ColumnConverter(CultureInfo.InvariantCulture));

        var mapped = MapOne(mapper, header, "JFK", "LAX", "1");
        Assert.Equal(["JFK", "to-LAX"], PartitionKeyLevels.Split(mapped.Entity!.PartitionKey));
        Assert.Equal("""["JFK","to-LAX"]""", PartitionKeyLevels.Display(mapped.Entity.PartitionKey));
        Assert.Equal("partition key level 1 (/origin) is empty: column 'origin' is empty", MapOne(mapper, header, "", "LAX", "2").RejectReason);
        Assert.Equal("partition key level 2 (/dest): column 'dest' is empty, and every column of Loader:PartitionKey 'to-{dest}' must have a value", MapOne(mapper, header, "JFK", "", "3").RejectReason);
        Assert.Equal("partition key level 2 (/dest) holds control character U+001F, with which the loader joins the levels of a hierarchical key", MapOne(mapper, header, "JFK", "L\u001FAX", "4").RejectReason);
    }

    [Fact]
    public async Task A_json_cell_that_does_not_parse_is_a_reject_naming_the_column_and_the_character()
    {
        await using var rules = CosmosRules(_ => { });
        string[] header = ["pk", "rk", "doc"];
        var mapper = new EntityMapper(
            MappingPlan.Create(header, KeyTemplate.Parse("{pk}"), KeyTemplate.Parse("{rk}"), new Dictionary<string, ColumnType> { ["doc"] = ColumnType.Json }, rules),
            rules,
            new ColumnConverter(CultureInfo.InvariantCulture));

        Assert.Equal("""{"a":[1,2]}""", MapOne(mapper, header, "p", "1", """{"a":[1,2]}""").Entity!.Properties.Single(property => property.Name == "doc").AsJson());
        Assert.Equal("column 'doc': '[1,2' is not a JSON value: '2' is an invalid end of a number. Expected a delimiter, at character 5", MapOne(mapper, header, "p", "2", "[1,2").RejectReason);
    }

    [Fact]
    public async Task A_name_that_is_both_a_value_and_a_path_through_it_is_refused_at_start()
    {
        await using var rules = CosmosRules(options => options.PartitionKeyPath = "/customer/id");

        var exception = Assert.Throws<InputHeaderException>(() => MappingPlan.Create(
            ["pk", "rk", "address", "address.city", "customer", "customer.id", "a..b"], KeyTemplate.Parse("{customer.id}"), KeyTemplate.Parse("{rk}"), new Dictionary<string, ColumnType>(), rules));

        Assert.Equal(
            """
            column 7 'a..b' is not a valid property name: it has an empty name before, between or after the path separator '.' (Loader:Cosmos:PathSeparator), which nests names: address.city
            column 'address' and column 'address.city' cannot both be written: 'address' would be a value and an object holding 'city' (the path separator '.', Loader:Cosmos:PathSeparator, nests names)
            column 'customer' and the id, partition key or system property 'customer.id' cannot both be written: 'customer' would be a value and an object holding 'id' (the path separator '.', Loader:Cosmos:PathSeparator, nests names)
            Header columns: 'pk', 'rk', 'address', 'address.city', 'customer', 'customer.id', 'a..b'
            """.ReplaceLineEndings(Environment.NewLine),
            exception.Message);
    }

    [Fact]
    public async Task The_column_at_a_nested_key_path_feeds_the_template_and_is_not_written_again()
    {
        await using var rules = CosmosRules(options => options.PartitionKeyPath = "/customer/id");

        var plan = MappingPlan.Create(["customer.id", "customer.name", "rk"], KeyTemplate.Parse("{customer.id}"), KeyTemplate.Parse("{rk}"), new Dictionary<string, ColumnType>(), rules);

        Assert.Equal(["customer.name", "rk"], plan.Columns.Select(column => column.Name));
    }
}
