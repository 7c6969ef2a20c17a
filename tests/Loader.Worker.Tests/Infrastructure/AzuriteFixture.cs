using Azure.Data.Tables;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>One Azurite Table service for the whole test run; each test works in its own table.</summary>
public sealed class AzuriteFixture : IAsyncLifetime
{
    private static int s_tables;
    private AzuriteProcess? _azurite;

    public AzuriteProcess Azurite => _azurite ?? throw new InvalidOperationException("Azurite has not started");

    public string ConnectionString => Azurite.ConnectionString;

    /// <summary>The SDK's client for the emulator's Table service: what the tests create tables with and read them back through.</summary>
    public TableServiceClient Client { get; private set; } = null!;

    public async ValueTask InitializeAsync()
    {
        _azurite = await AzuriteProcess.StartAsync();
        Client = new TableServiceClient(ConnectionString);
    }

    public async ValueTask DisposeAsync()
    {
        if (_azurite is not null)
        {
            await _azurite.DisposeAsync();
        }
    }

    /// <summary>A table name no other test uses.</summary>
    public static string UniqueTableName(string prefix = "t") =>
        $"{prefix}{Environment.ProcessId}x{Interlocked.Increment(ref s_tables)}";

    /// <summary>Every entity of a table, keyed by (PartitionKey, RowKey).</summary>
    public Task<Dictionary<(string, string), StoredEntity>> ReadTableAsync(string table, CancellationToken cancellationToken) =>
        ReadTableAsync(ConnectionString, table, cancellationToken);

    /// <summary>Every entity of a table of the service a connection string names, keyed by (PartitionKey, RowKey).</summary>
    public static async Task<Dictionary<(string, string), StoredEntity>> ReadTableAsync(string connectionString, string table, CancellationToken cancellationToken)
    {
        var entities = new Dictionary<(string, string), StoredEntity>();
        await foreach (var entity in new TableClient(connectionString, table).QueryAsync<TableEntity>(cancellationToken: cancellationToken))
        {
            var stored = StoredEntity.From(entity);
            entities.Add((stored.PartitionKey, stored.RowKey), stored);
        }

        return entities;
    }
}

/// <summary>An entity as read back through the SDK: its keys and its own properties, typed as the service stored them.</summary>
public sealed record StoredEntity(string PartitionKey, string RowKey, IReadOnlyDictionary<string, object> Properties)
{
    private static readonly HashSet<string> s_service = new(["PartitionKey", "RowKey", "Timestamp", "odata.etag"], StringComparer.Ordinal);

    public static StoredEntity From(TableEntity entity) => new(
        entity.PartitionKey,
        entity.RowKey,
        entity.Where(pair => !s_service.Contains(pair.Key)).ToDictionary(
            pair => pair.Key,
            // The SDK reads Edm.DateTime as DateTimeOffset; the loader writes UTC DateTime, and tests compare with that.
            pair => pair.Value is DateTimeOffset time ? time.UtcDateTime : pair.Value,
            StringComparer.Ordinal));
}
