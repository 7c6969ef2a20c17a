using Loader.Abstractions;
using Loader.Worker.Backends.Cosmos;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Tests.Backends.Cosmos;

/// <summary>
/// The <c>ttl</c> the adapter writes, through the real SDK against the stand-in: fixed on every item or each row's
/// from a column, in both modes; a cell that is no ttl refused naming the column; a container without time to live
/// warned about; a container it creates for such a load gets time to live on.
/// </summary>
public sealed class CosmosItemTimeToLiveTests(CosmosStandInFixture cosmos) : IAsyncDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly string _container = CosmosStandInFixture.UniqueContainerName("ttl");
    private readonly CapturingLoggerProvider _logs = new();
    private readonly List<IAsyncDisposable> _owned = [];

    public async ValueTask DisposeAsync()
    {
        foreach (var owned in _owned)
        {
            await owned.DisposeAsync();
        }
    }

    private async Task<CosmosAdapter> AdapterAsync(CosmosWriteMethod mode, Action<CosmosOptions> configure, bool createIfMissing = true)
    {
        using var loggerFactory = LoggerFactory.Create(builder => builder.AddProvider(_logs));
        var adapter = cosmos.CreateAdapter(_container, mode, configure: options =>
        {
            options.CreateIfMissing = createIfMissing;
            configure(options);
        }, loggerFactory: loggerFactory);
        _owned.Add(adapter);
        await adapter.PrepareAsync(_cancellation);
        return adapter;
    }

    private static LoadEntity Entity(CosmosAdapter adapter, string id, params EntityProperty[] properties)
    {
        var inspection = adapter.Inspect("p", id, properties);
        Assert.True(inspection.IsValid, inspection.Violation);
        return new LoadEntity("p", id, properties, new RowOrigin(1, 2), inspection.PayloadBytes);
    }

    [Theory]
    [InlineData(nameof(CosmosWriteMethod.TransactionalBatch))]
    [InlineData(nameof(CosmosWriteMethod.Bulk))]
    public async Task A_fixed_ttl_is_written_on_every_item(string modeName)
    {
        var adapter = await AdapterAsync(Enum.Parse<CosmosWriteMethod>(modeName), options => options.TimeToLive = 3600);

        var outcome = await adapter.WriteBatchAsync(new EntityBatch("p", [
            Entity(adapter, "a", EntityProperty.FromString("carrier", "AA")),
            Entity(adapter, "b"),
        ], WriteMode.Upsert), _cancellation);

        Assert.Equal(BatchStatus.Written, outcome.Status);
        var items = await cosmos.ReadContainerAsync(_container, cancellationToken: _cancellation);
        Assert.Equal([3600, 3600], items.Values.Select(item => item.GetProperty("ttl").GetInt32()));
    }

    [Theory]
    [InlineData(nameof(CosmosWriteMethod.TransactionalBatch))]
    [InlineData(nameof(CosmosWriteMethod.Bulk))]
    public async Task Each_rows_ttl_comes_from_its_column_in_place_of_the_column_and_an_empty_cell_writes_none(string modeName)
    {
        var adapter = await AdapterAsync(Enum.Parse<CosmosWriteMethod>(modeName), options => options.TimeToLiveColumn = "expires");

        var outcome = await adapter.WriteBatchAsync(new EntityBatch("p", [
            Entity(adapter, "a", EntityProperty.FromString("expires", "60"), EntityProperty.FromString("carrier", "AA")),
            Entity(adapter, "b", EntityProperty.FromInt32("expires", -1)),
            Entity(adapter, "c", EntityProperty.FromString("carrier", "DL")), // the mapper drops an empty cell
        ], WriteMode.Upsert), _cancellation);

        Assert.Equal(BatchStatus.Written, outcome.Status);
        var items = await cosmos.ReadContainerAsync(_container, cancellationToken: _cancellation);
        Assert.Equal(60, items[("p", "a")].GetProperty("ttl").GetInt32());
        Assert.Equal(-1, items[("p", "b")].GetProperty("ttl").GetInt32());
        Assert.False(items[("p", "c")].TryGetProperty("ttl", out _));
        Assert.All(items.Values, item => Assert.False(item.TryGetProperty("expires", out _)));
    }

    [Theory]
    [InlineData("abc")]
    [InlineData("0")]
    [InlineData("-5")]
    [InlineData("1.5")]
    [InlineData("9999999999")]
    public async Task A_cell_that_is_no_ttl_is_refused_naming_the_column(string cell)
    {
        var adapter = await AdapterAsync(CosmosWriteMethod.TransactionalBatch, options => options.TimeToLiveColumn = "expires");

        var inspection = adapter.Inspect("p", "a", [EntityProperty.FromString("expires", cell)]);

        Assert.False(inspection.IsValid);
        Assert.Equal(
            $"column 'expires' (Loader:Cosmos:TimeToLiveColumn): '{cell}' is not a time to live: give -1 (never expires) or a whole number of seconds from 1 to 2147483647",
            inspection.Violation);
    }

    [Fact]
    public async Task A_container_without_time_to_live_is_warned_about()
    {
        await cosmos.CreateContainerAsync(_container, cancellationToken: _cancellation);

        await AdapterAsync(CosmosWriteMethod.TransactionalBatch, options => options.TimeToLive = 60, createIfMissing: false);

        var warning = Assert.Single(_logs.Logs, log => log.Level == LogLevel.Warning);
        Assert.StartsWith($"Container '{_container}' does not have time to live enabled (no DefaultTimeToLive): the service ignores the ttl Loader:Cosmos:TimeToLive writes", warning.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_container_created_for_a_ttl_load_has_time_to_live_on_and_no_warning()
    {
        await AdapterAsync(CosmosWriteMethod.TransactionalBatch, options => options.TimeToLiveColumn = "expires");

        var properties = await cosmos.Client.GetContainer(CosmosStandInFixture.Database, _container).ReadContainerAsync(cancellationToken: _cancellation);
        Assert.Equal(-1, properties.Resource.DefaultTimeToLive);
        Assert.DoesNotContain(_logs.Logs, log => log.Level == LogLevel.Warning);
    }

    [Fact]
    public async Task A_container_with_time_to_live_on_is_not_warned_about_and_one_without_a_ttl_setting_neither()
    {
        var properties = new Microsoft.Azure.Cosmos.ContainerProperties(_container, "/pk") { DefaultTimeToLive = 86400 };
        await cosmos.Client.GetDatabase(CosmosStandInFixture.Database).CreateContainerAsync(properties, cancellationToken: _cancellation);

        await AdapterAsync(CosmosWriteMethod.TransactionalBatch, options => options.TimeToLive = 60, createIfMissing: false);
        await AdapterAsync(CosmosWriteMethod.TransactionalBatch, _ => { }, createIfMissing: false);

        Assert.DoesNotContain(_logs.Logs, log => log.Level == LogLevel.Warning);
    }
}
