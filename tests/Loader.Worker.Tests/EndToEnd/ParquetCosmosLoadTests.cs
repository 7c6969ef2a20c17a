using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;
using Loader.Worker.Tests.Parquet;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// A Parquet file loaded into Cosmos DB for NoSQL by the loader's real process, through the real SDK against the
/// stand-in, read back: every mapped type as its JSON, a struct nested as it is, a list as an array, binary as base64,
/// a null in every column left out.
/// </summary>
public sealed class ParquetCosmosLoadTests(CosmosStandInFixture cosmos) : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task Every_mapped_type_round_trips_into_cosmos_db_with_structs_nested_and_lists_as_arrays()
    {
        var path = _directory.File("every.parquet");
        await ParquetTestFile.WriteEveryTypeAsync(path, rows: 10, rowGroupSize: 4, _cancellation);
        var container = CosmosStandInFixture.UniqueContainerName("parquet");
        var settings = cosmos.LoaderSettings(container);
        settings["Loader:Input"] = path;
        settings["Loader:PartitionKey"] = "p{id}";
        settings["Loader:RowKey"] = "{id}";
        settings["Loader:LogFormat"] = "Json";

        await using var loader = LoaderProcess.Start(settings);
        var exit = await loader.WaitForExitAsync(TimeSpan.FromMinutes(2), _cancellation);

        Assert.True(exit == ExitCodes.Success, loader.Output);
        var items = await cosmos.ReadContainerAsync(container, cancellationToken: _cancellation);
        Assert.Equal(10, items.Count);
        var item = items[("p7", "7")];
        Assert.False(item.GetProperty("flag").GetBoolean());
        Assert.Equal(-93, item.GetProperty("small").GetInt32());
        Assert.Equal(5_000_000_007L, item.GetProperty("big").GetInt64());
        Assert.Equal(49L, item.GetProperty("unsigned").GetInt64());
        Assert.Equal(7.5, item.GetProperty("single").GetDouble());
        Assert.Equal(0.875, item.GetProperty("ratio").GetDouble());
        Assert.Equal("name-7 é", item.GetProperty("name").GetString());
        Assert.Equal("1241.5000", item.GetProperty("amount").GetString());
        Assert.Equal("123456789012345678.9012345685", item.GetProperty("precise").GetString());
        Assert.Equal("2024-03-01T12:37:15.0000000Z", item.GetProperty("when").GetString());
        Assert.Equal("2024-01-08T00:00:00.0000000Z", item.GetProperty("day").GetString());
        Assert.Equal(new Guid(7, 0, 0, [1, 2, 3, 4, 5, 6, 7, 8]).ToString("D"), item.GetProperty("uid").GetString());
        Assert.Equal(Convert.ToBase64String([0, 7, 255]), item.GetProperty("blob").GetString());
        Assert.Equal("01:00:00.007", item.GetProperty("time").GetString());
        Assert.Equal("city-1", item.GetProperty("address").GetProperty("city").GetString());
        Assert.Equal(10_007, item.GetProperty("address").GetProperty("zip").GetInt32());
        Assert.Equal(["a", "t7"], item.GetProperty("tags").EnumerateArray().Select(tag => tag.GetString()));
        var nulls = items[("p3", "3")];
        Assert.Equal(["id", "pk"], nulls.EnumerateObject().Select(property => property.Name).Where(name => !name.StartsWith('_')).Order(StringComparer.Ordinal));
    }
}
