using Loader.Worker.Backends.Tables;

namespace Loader.Worker.Tests.Infrastructure;

/// <summary>One Azurite Table service for the whole test run; each test works in its own table.</summary>
public sealed class AzuriteFixture : IAsyncLifetime
{
    private static int s_tables;
    private AzuriteProcess? _azurite;

    public AzuriteProcess Azurite => _azurite ?? throw new InvalidOperationException("Azurite has not started");

    public string ConnectionString => Azurite.ConnectionString;

    public TableRestClient Client { get; private set; } = null!;

    public async ValueTask InitializeAsync()
    {
        _azurite = await AzuriteProcess.StartAsync();
        Client = TableRestClient.FromConnectionString(ConnectionString);
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
    public Task<Dictionary<(string, string), TableEntity>> ReadTableAsync(string table, CancellationToken cancellationToken) =>
        ReadTableAsync(Client, table, cancellationToken);

    /// <summary>Every entity of a table behind <paramref name="client"/>, keyed by (PartitionKey, RowKey).</summary>
    public static async Task<Dictionary<(string, string), TableEntity>> ReadTableAsync(TableRestClient client, string table, CancellationToken cancellationToken)
    {
        var entities = new Dictionary<(string, string), TableEntity>();
        await foreach (var entity in client.QueryAsync(table, null, cancellationToken))
        {
            entities.Add((entity.PartitionKey, entity.RowKey), entity);
        }

        return entities;
    }
}
