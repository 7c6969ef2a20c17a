using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// <c>Loader:SkipColumns</c> through the real host into Azurite: the columns it names are not written, whether the store
/// should not hold them (personal data), cannot (a name Table Storage refuses, a Parquet type no store holds) or has no
/// room for them (a Parquet file wider than an entity's 252 properties); key templates still use them; a name the input lacks, or a column also
/// given a type, stops the load at start (exit 2).
/// </summary>
public sealed class SkipColumnsTests(AzuriteFixture azurite) : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private Dictionary<string, string?> Settings(string input, string table, string skip) => new()
    {
        ["Loader:Input"] = input,
        ["Loader:Tables:ConnectionString"] = azurite.ConnectionString,
        ["Loader:Tables:Table"] = table,
        ["Loader:PartitionKey"] = "{pk}",
        ["Loader:RowKey"] = "{rk}-{ssn}",
        ["Loader:SkipColumns"] = skip,
    };

    [Fact]
    public async Task Skipped_columns_are_not_written_and_key_templates_still_use_them()
    {
        var input = _directory.File("people.csv");
        await File.WriteAllTextAsync(input, "pk,rk,ssn,my col,v\np,1,111-22-3333,x,a\np,2,444-55-6666,y,b\n", _cancellation);
        var table = AzuriteFixture.UniqueTableName("skip");

        var run = await LoaderRunner.RunAsync(Settings(input, table, " ssn , my col "), _cancellation);

        Assert.True(run.ExitCode == ExitCodes.Success, run.Error);
        var stored = await azurite.ReadTableAsync(table, _cancellation);
        Assert.Equal(["p/1-111-22-3333", "p/2-444-55-6666"], stored.Keys.Select(key => $"{key.Item1}/{key.Item2}").Order(StringComparer.Ordinal));
        Assert.All(stored.Values, entity => Assert.Equal(["pk", "rk", "v"], entity.Properties.Keys.Order(StringComparer.Ordinal)));
    }

    [Fact]
    public async Task A_skipped_name_the_input_lacks_or_a_skipped_column_also_typed_is_exit_2_at_start_naming_it()
    {
        var input = _directory.File("people.csv");
        await File.WriteAllTextAsync(input, "pk,rk,ssn,v\np,1,111-22-3333,a\n", _cancellation);

        var misspelt = await LoaderRunner.RunAsync(Settings(input, AzuriteFixture.UniqueTableName("skip"), "snn"), _cancellation);
        Assert.Equal(ExitCodes.InvalidConfiguration, misspelt.ExitCode);
        Assert.Contains("Loader:SkipColumns names 'snn'", misspelt.Error + misspelt.RequireReport().Message, StringComparison.Ordinal);

        var both = Settings(input, AzuriteFixture.UniqueTableName("skip"), "ssn");
        both["Loader:Columns:ssn"] = "String";
        var typed = await LoaderRunner.RunAsync(both, _cancellation);
        Assert.Equal(ExitCodes.InvalidConfiguration, typed.ExitCode);
        Assert.Contains("Loader:SkipColumns leaves out column 'ssn', which Loader:Columns:ssn gives a type: drop one of the two.", typed.Error, StringComparison.Ordinal);
        Assert.Empty(await azurite.Client.QueryAsync(filter: $"TableName eq '{both["Loader:Tables:Table"]}'", cancellationToken: _cancellation).ToListAsync(_cancellation));
    }

    [Fact]
    public async Task A_parquet_column_no_store_holds_loads_when_skipped_and_is_not_read()
    {
        var path = _directory.File("waits.parquet");
        await DuckDbParquet.WriteAsync(path, rowGroupRows: null, "SELECT 'p' AS pk, range AS rk, range AS ssn, INTERVAL (range) DAY AS wait, [INTERVAL 1 DAY] AS waits, 'kept' AS v FROM range(4)", _cancellation);
        var table = AzuriteFixture.UniqueTableName("waits");

        var refused = await LoaderRunner.RunAsync(Settings(path, table, "ssn"), _cancellation);
        Assert.Equal(ExitCodes.InvalidConfiguration, refused.ExitCode);
        Assert.Contains("'wait' is INTERVAL, which no store type holds", refused.Error + refused.RequireReport().Message, StringComparison.Ordinal);

        var run = await LoaderRunner.RunAsync(Settings(path, table, "wait,waits"), _cancellation);

        Assert.True(run.ExitCode == ExitCodes.Success, run.Error);
        var stored = await azurite.ReadTableAsync(table, _cancellation);
        Assert.Equal(4, stored.Count);
        Assert.All(stored.Values, entity => Assert.Equal(["pk", "rk", "ssn", "v"], entity.Properties.Keys.Order(StringComparer.Ordinal)));
    }

    [Fact]
    public async Task A_parquet_file_wider_than_an_entity_loads_with_the_columns_it_does_not_need_skipped()
    {
        // 300 value columns: without SkipColumns every row is rejected for Table Storage's 252 properties.
        var path = _directory.File("wide.parquet");
        var columns = string.Join(", ", Enumerable.Range(0, 300).Select(i => $"range + {i} AS c{i}"));
        await DuckDbParquet.WriteAsync(path, rowGroupRows: null, $"SELECT 'p' AS pk, range AS rk, range AS ssn, {columns} FROM range(5)", _cancellation);
        var table = AzuriteFixture.UniqueTableName("wide");
        var skip = string.Join(",", Enumerable.Range(200, 100).Select(i => $"c{i}"));

        var run = await LoaderRunner.RunAsync(Settings(path, table, skip), _cancellation);

        Assert.True(run.ExitCode == ExitCodes.Success, run.Error);
        Assert.Equal((5L, 5L, 0L), (run.RequireReport().RowsRead, run.RequireReport().RowsWritten, run.RequireReport().RowsRejected));
        var stored = await azurite.ReadTableAsync(table, _cancellation);
        Assert.All(stored.Values, entity => Assert.Equal(203, entity.Properties.Count)); // pk, rk, ssn and c0..c199
    }
}
