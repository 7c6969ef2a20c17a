using Azure;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Tables;

/// <summary>Writes each batch as one entity group transaction to Azure Table Storage, Azurite or Cosmos DB for Table.</summary>
public sealed class TablesAdapter : IBackendAdapter
{
    private readonly TableRestClient _client;
    private readonly string _table;
    private readonly bool _createTable;
    private readonly TimeProvider _timeProvider;
    private readonly TableTransactionContent _content;
    private readonly TableEntityRules _rules;

    public TablesAdapter(TableRestClient client, string table, bool createTable, TimeProvider timeProvider)
    {
        _client = client;
        _table = table;
        _createTable = createTable;
        _timeProvider = timeProvider;
        _content = new TableTransactionContent(client.Endpoint, table);
        _rules = new TableEntityRules(_content.TableUrlBytes);
    }

    public string Name => "Tables";

    public BackendLimits Limits { get; } = new(TableLimits.MaxOperationsPerBatch, TableLimits.MaxBatchPayloadBytes)
    {
        SystemPropertyNames = TableLimits.SystemPropertyNames,
    };

    public async Task PrepareAsync(CancellationToken cancellationToken)
    {
        if (_createTable)
        {
            await _client.CreateTableIfNotExistsAsync(_table, cancellationToken).ConfigureAwait(false);
        }
        else
        {
            // Reading one entity proves the endpoint, the credentials and the table before any row is sent.
            await using var probe = _client.QueryAsync(_table, "PartitionKey eq ''", cancellationToken).GetAsyncEnumerator(cancellationToken);
            await probe.MoveNextAsync().ConfigureAwait(false);
        }
    }

    public string? CheckPropertyName(string name) => TableEntityRules.CheckPropertyName(name);

    public EntityInspection Inspect(string partitionKey, string rowKey, ReadOnlySpan<EntityProperty> properties) =>
        _rules.Inspect(partitionKey, rowKey, properties);

    public async Task<BatchOutcome> WriteBatchAsync(EntityBatch batch, CancellationToken cancellationToken)
    {
        var started = _timeProvider.GetTimestamp();
        TableTransactionResult result;
        try
        {
            result = await _client.SubmitTransactionAsync(_content, batch, cancellationToken).ConfigureAwait(false);
        }
        catch (RequestFailedException exception) when (exception.Status == 0 && !cancellationToken.IsCancellationRequested)
        {
            // Azure.Core reports connection failures (refused, reset, timed out) as status 0.
            return new BatchOutcome
            {
                Status = BatchStatus.Transient,
                Latency = _timeProvider.GetElapsedTime(started),
                Error = TransportError(exception),
            };
        }

        return TableOutcomes.From(result, batch, _timeProvider.GetElapsedTime(started));
    }

    private static string TransportError(RequestFailedException exception)
    {
        var root = exception.GetBaseException();
        return $"no response from the service: {root.Message}";
    }

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;
}
