using System.Globalization;
using System.Text.Json;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// A Parquet file from another writer than the Parquet.Net the loader reads with: DuckDB lays it out as data tools do
/// (dictionary pages for the columns that repeat, plain pages for the rest, every column optional), here 5,000 rows in
/// row groups of 2,048 with a null in every column somewhere, a list of structs (order lines) with a struct and a list inside, a list of lists, a list of maps and a map. Loaded by the real host into Azurite and by the real process
/// into the Cosmos DB stand-in, every row is read back and compared with what the query made of its number.
/// </summary>
public sealed class ParquetFromDuckDbTests(AzuriteFixture azurite, CosmosStandInFixture cosmos) : IDisposable
{
    private const int Rows = 5_000;

    /// <summary>
    /// Columns that repeat (part, small, city: dictionary pages) and columns that do not, every type the loader maps,
    /// and each column null on rows of its own divisor.
    /// </summary>
    private const string Select = """
        SELECT n,
          'p' || (n % 7) AS part,
          CASE WHEN n % 11 = 0 THEN NULL ELSE (n % 100)::INTEGER END AS small,
          CASE WHEN n % 13 = 0 THEN NULL ELSE n * 100000000000 END AS big,
          CASE WHEN n % 5 = 0 THEN NULL ELSE n / 4 END::DOUBLE AS ratio,
          CASE WHEN n % 17 = 0 THEN NULL ELSE n % 2 = 0 END AS flag,
          CASE WHEN n % 19 = 0 THEN NULL ELSE 'city ' || (n % 40) || ' é' END AS city,
          CASE WHEN n % 23 = 0 THEN NULL ELSE 'note ' || n END AS note,
          CASE WHEN n % 29 = 0 THEN NULL ELSE TIMESTAMP '2024-01-01 00:00:00' + to_seconds(n) END AS at,
          CASE WHEN n % 31 = 0 THEN NULL ELSE DATE '2024-01-01' + n::INTEGER END AS day,
          CASE WHEN n % 37 = 0 THEN NULL ELSE ('00000000-0000-0000-0000-' || lpad(n::VARCHAR, 12, '0'))::UUID END AS uid,
          CASE WHEN n % 41 = 0 THEN NULL ELSE (n / 8)::DECIMAL(18,4) END AS amount,
          CASE WHEN n % 43 = 0 THEN NULL ELSE unhex(printf('%04x', n)) END AS blob,
          CASE WHEN n % 47 = 0 THEN NULL ELSE {'city': 'c' || (n % 9), 'zip': n::INTEGER} END AS address,
          CASE WHEN n % 53 = 0 THEN NULL WHEN n % 59 = 0 THEN []::VARCHAR[] ELSE ['a', 't' || n] END AS tags,
          CASE WHEN n % 61 = 0 THEN NULL
            WHEN n % 67 = 0 THEN []
            WHEN n % 71 = 0 THEN [NULL, {'sku': 'x' || n, 'qty': NULL, 'size': NULL, 'cuts': NULL}]
            ELSE [{'sku': 's' || n, 'qty': (n % 9)::INTEGER, 'size': {'w': n / 4, 'h': 2}, 'cuts': [n % 3, NULL]}, {'sku': 'u' || n, 'qty': 1, 'size': {'w': NULL, 'h': 3}, 'cuts': []}] END AS items,
          CASE WHEN n % 83 = 0 THEN NULL ELSE [[n, n + 1], [], NULL, [NULL]] END AS grid,
          CASE WHEN n % 89 = 0 THEN NULL ELSE [MAP {'q': n::INTEGER}, NULL] END AS options,
          CASE WHEN n % 73 = 0 THEN NULL WHEN n % 79 = 0 THEN MAP {}::MAP(VARCHAR, INTEGER)
            ELSE MAP {'a': n::INTEGER, 'b': CASE WHEN n % 2 = 0 THEN NULL ELSE 1 END} END AS attrs
        FROM range(1, 5001) numbers(n)
        """;

    private static readonly DateTime s_base = new(2024, 1, 1, 0, 0, 0, DateTimeKind.Utc);

    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task A_duckdb_file_with_dictionary_pages_round_trips_into_table_storage_row_for_row()
    {
        var path = await WriteAsync();
        var table = AzuriteFixture.UniqueTableName("duckdb");
        var settings = new Dictionary<string, string?>
        {
            ["Loader:Input"] = path,
            ["Loader:Tables:ConnectionString"] = azurite.ConnectionString,
            ["Loader:Tables:Table"] = table,
            ["Loader:PartitionKey"] = "{part}",
            ["Loader:RowKey"] = "{n}",
        };

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.True(run.ExitCode == ExitCodes.Success, run.Error);
        Assert.Equal((Rows, Rows, 0L), (run.RequireReport().RowsRead, run.RequireReport().RowsWritten, run.RequireReport().RowsRejected));
        var stored = await azurite.ReadTableAsync(table, _cancellation);
        Assert.Equal(Rows, stored.Count);
        for (var n = 1L; n <= Rows; n++)
        {
            var expected = TableProperties(n);
            var actual = stored[($"p{n % 7}", n.ToString(CultureInfo.InvariantCulture))].Properties;
            Assert.Equal(expected.Keys.Order(StringComparer.Ordinal), actual.Keys.Order(StringComparer.Ordinal));
            foreach (var (name, value) in expected)
            {
                Assert.True(Equals(value, Comparable(actual[name])), $"row {n}, '{name}': expected {value} ({value.GetType().Name}), read {actual[name]} ({actual[name].GetType().Name})");
            }
        }

        var verified = await VerifyRunner.RunAsync(settings, _cancellation);
        Assert.True(verified.ExitCode == ExitCodes.Success, verified.Summary);
        Assert.Equal((Rows, 0L, 0L), (verified.RequireReport().RowsMatching, verified.RequireReport().RowsMissing, verified.RequireReport().RowsDifferent));
    }

    [Fact]
    public async Task A_duckdb_file_with_dictionary_pages_round_trips_into_cosmos_db_document_for_document()
    {
        var path = await WriteAsync();
        var container = CosmosStandInFixture.UniqueContainerName("duckdb");
        var settings = cosmos.LoaderSettings(container);
        settings["Loader:Input"] = path;
        settings["Loader:PartitionKey"] = "{part}";
        settings["Loader:RowKey"] = "{n}";
        settings["Loader:LogFormat"] = "Json";

        await using var loader = LoaderProcess.Start(settings);
        var exit = await loader.WaitForExitAsync(TimeSpan.FromMinutes(3), _cancellation);

        Assert.True(exit == ExitCodes.Success, loader.Output);
        var items = await cosmos.ReadContainerAsync(container, cancellationToken: _cancellation);
        Assert.Equal(Rows, items.Count);
        for (var n = 1L; n <= Rows; n++)
        {
            var item = items[($"p{n % 7}", n.ToString(CultureInfo.InvariantCulture))];
            var expected = DocumentProperties(n);
            var actual = item.EnumerateObject().Where(property => !property.Name.StartsWith('_') && property.Name is not ("id" or "pk"))
                .ToDictionary(property => property.Name, property => property.Value, StringComparer.Ordinal);
            Assert.Equal(expected.Keys.Order(StringComparer.Ordinal), actual.Keys.Order(StringComparer.Ordinal));
            foreach (var (name, json) in expected)
            {
                using var wanted = JsonDocument.Parse(json);
                Assert.True(JsonElement.DeepEquals(wanted.RootElement, actual[name]), $"row {n}, '{name}': expected {json}, read {actual[name].GetRawText()}");
            }
        }
    }

    [Fact]
    public async Task A_list_or_map_holding_a_value_no_store_type_holds_is_exit_2_at_start_naming_the_column_and_the_field()
    {
        var path = _directory.File("interval.parquet");
        await DuckDbParquet.WriteAsync(path, rowGroupRows: null, "SELECT 1 AS n, [{'sku': 'a', 'wait': INTERVAL 1 DAY}] AS items, MAP {'k': [INTERVAL 2 DAY]} AS waits", _cancellation);
        var settings = new Dictionary<string, string?>
        {
            ["Loader:Input"] = path,
            ["Loader:Tables:ConnectionString"] = azurite.ConnectionString,
            ["Loader:Tables:Table"] = AzuriteFixture.UniqueTableName("interval"),
            ["Loader:PartitionKey"] = "p{n}",
            ["Loader:RowKey"] = "{n}",
        };

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.InvalidConfiguration, run.ExitCode);
        Assert.Contains("has 2 columns the loader cannot write: 'items' holds 'wait' of INTERVAL, which no store type holds; 'waits' holds 'element' of INTERVAL, which no store type holds.", run.Error + run.RequireReport().Message, StringComparison.Ordinal);
        Assert.Equal(0, run.RequireReport().RowsRead);
    }

    private async Task<string> WriteAsync()
    {
        var path = _directory.File("duckdb.parquet");
        await DuckDbParquet.WriteAsync(path, rowGroupRows: 2_048, Select, _cancellation);
        return path;
    }

    /// <summary>What the query made of row <paramref name="n"/>, as Table Storage holds it: nulls left out, the struct flattened, the list as its JSON.</summary>
    private static Dictionary<string, object> TableProperties(long n)
    {
        var properties = new Dictionary<string, object>(StringComparer.Ordinal) { ["n"] = n, ["part"] = $"p{n % 7}" };
        foreach (var (name, value) in Shared(n))
        {
            properties[name] = value;
        }

        if (n % 43 != 0)
        {
            properties["blob"] = Convert.ToBase64String(Blob(n));
        }

        if (n % 47 != 0)
        {
            properties["address_city"] = $"c{n % 9}";
            properties["address_zip"] = (int)n;
        }

        foreach (var (name, json) in JsonColumns(n))
        {
            properties[name] = json;
        }

        return properties;
    }

    /// <summary>What the query made of row <paramref name="n"/>, as Cosmos DB holds it, each value as its JSON text.</summary>
    private static Dictionary<string, string> DocumentProperties(long n)
    {
        var properties = new Dictionary<string, string>(StringComparer.Ordinal) { ["n"] = Json(n), ["part"] = Json($"p{n % 7}") };
        foreach (var (name, value) in Shared(n))
        {
            properties[name] = value switch
            {
                DateTime at => Json(at.ToString("yyyy-MM-dd'T'HH:mm:ss.fffffff'Z'", CultureInfo.InvariantCulture)),
                Guid id => Json(id.ToString("D")),
                _ => Json(value),
            };
        }

        if (n % 43 != 0)
        {
            properties["blob"] = Json(Convert.ToBase64String(Blob(n)));
        }

        if (n % 47 != 0)
        {
            properties["address"] = $$"""{"city":"c{{n % 9}}","zip":{{n}}}""";
        }

        foreach (var (name, json) in JsonColumns(n))
        {
            properties[name] = json;
        }

        return properties;
    }

    /// <summary>The list and map columns of row <paramref name="n"/> as their JSON text: Table Storage holds the text, Cosmos DB the value it spells.</summary>
    private static IEnumerable<(string Name, string Json)> JsonColumns(long n)
    {
        if (n % 53 != 0)
        {
            yield return ("tags", n % 59 == 0 ? "[]" : $"[\"a\",\"t{n}\"]");
        }

        if (Items(n) is { } items)
        {
            yield return ("items", items);
        }

        if (n % 83 != 0)
        {
            yield return ("grid", $"[[{n},{n + 1}],[],null,[null]]");
        }

        if (n % 89 != 0)
        {
            yield return ("options", $"[{{\"q\":{n}}},null]");
        }

        if (n % 73 != 0)
        {
            yield return ("attrs", n % 79 == 0 ? "{}" : $"{{\"a\":{n},\"b\":{(n % 2 == 0 ? "null" : "1")}}}");
        }
    }

    /// <summary>Row <paramref name="n"/>'s order lines as their JSON text: a null list, an empty one, a null line and a line of nulls, or two lines.</summary>
    private static string? Items(long n)
    {
        if (n % 61 == 0)
        {
            return null;
        }

        if (n % 67 == 0)
        {
            return "[]";
        }

        if (n % 71 == 0)
        {
            return $$"""[null,{"sku":"x{{n}}","qty":null,"size":null,"cuts":null}]""";
        }

        return $$$"""[{"sku":"s{{{n}}}","qty":{{{n % 9}}},"size":{"w":{{{Json(n / 4.0)}}},"h":2},"cuts":[{{{n % 3}}},null]},{"sku":"u{{{n}}}","qty":1,"size":{"w":null,"h":3},"cuts":[]}]""";
    }

    /// <summary>The columns both stores hold the same way, with the values as the loader types them.</summary>
    private static IEnumerable<(string Name, object Value)> Shared(long n)
    {
        if (n % 11 != 0)
        {
            yield return ("small", (int)(n % 100));
        }

        if (n % 13 != 0)
        {
            yield return ("big", n * 100_000_000_000L);
        }

        if (n % 5 != 0)
        {
            yield return ("ratio", n / 4.0);
        }

        if (n % 17 != 0)
        {
            yield return ("flag", n % 2 == 0);
        }

        if (n % 19 != 0)
        {
            yield return ("city", $"city {n % 40} é");
        }

        if (n % 23 != 0)
        {
            yield return ("note", $"note {n}");
        }

        if (n % 29 != 0)
        {
            yield return ("at", s_base.AddSeconds(n));
        }

        if (n % 31 != 0)
        {
            yield return ("day", s_base.AddDays(n));
        }

        if (n % 37 != 0)
        {
            yield return ("uid", Guid.Parse($"00000000-0000-0000-0000-{n:D12}", CultureInfo.InvariantCulture));
        }

        if (n % 41 != 0)
        {
            yield return ("amount", (n / 8m).ToString("0.0000", CultureInfo.InvariantCulture));
        }
    }

    private static byte[] Blob(long n) => [(byte)(n >> 8), (byte)n];

    private static string Json(object value) => JsonSerializer.Serialize(value);

    /// <summary>A value read back from Table Storage in the form <see cref="TableProperties"/> gives it.</summary>
    private static object Comparable(object value) => value is byte[] bytes ? Convert.ToBase64String(bytes) : value;
}
