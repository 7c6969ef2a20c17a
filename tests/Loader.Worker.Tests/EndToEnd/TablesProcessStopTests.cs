using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>The process stops against Table Storage: a real Azurite (its own one for the killed load), every table read back whole.</summary>
public sealed class TablesProcessStopTests(AzuriteFixture azurite) : ProcessStopTests
{
    protected override int KilledLoadRows => 120_000;

    protected override async Task<IAsyncDisposable> StartStoreAsync(bool large) =>
        large ? await AzuriteProcess.StartAsync(cancellationToken: Cancellation) : new SharedAzurite();

    protected override Dictionary<string, string?> StoreSettings(SkewedFlights flights, string name, IAsyncDisposable store) =>
        flights.Settings(ConnectionString(store), AzuriteFixture.UniqueTableName(name));

    protected override async Task<long> CountStoredAsync(Dictionary<string, string?> settings, IAsyncDisposable store) =>
        (await ReadAsync(settings, store)).Count;

    protected override async Task AssertStoreEqualsAsync(SkewedFlights flights, Dictionary<string, string?> settings, IAsyncDisposable store) =>
        flights.AssertTableEquals(await ReadAsync(settings, store));

    private Task<Dictionary<(string, string), StoredEntity>> ReadAsync(Dictionary<string, string?> settings, IAsyncDisposable store) =>
        AzuriteFixture.ReadTableAsync(ConnectionString(store), settings["Loader:Tables:Table"]!, Cancellation);

    private string ConnectionString(IAsyncDisposable store) => (store as AzuriteProcess)?.ConnectionString ?? azurite.ConnectionString;

    /// <summary>The run's shared Azurite: nothing to stop.</summary>
    private sealed class SharedAzurite : IAsyncDisposable
    {
        public ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }
}
