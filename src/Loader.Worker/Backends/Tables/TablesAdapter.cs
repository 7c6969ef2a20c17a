using Azure;
using Azure.Data.Tables;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Tables;

/// <summary>
/// Writes each batch as one entity group transaction to Azure Table Storage, Azurite or Cosmos DB for Table: through a
/// <see cref="TableTransactionSender"/> when it has one (<c>Loader:Tables:Writer=Direct</c>), else through
/// <see cref="TableClient.SubmitTransactionAsync"/>. One attempt per call: the pipeline's retries are off
/// (<see cref="TableClientFactory.Options"/>), and whatever the service answered comes back as a <see cref="BatchOutcome"/>.
/// </summary>
internal sealed class TablesAdapter : IBackendAdapter, IWriteProbe, IStoredEntityComparison, IPartitionReader
{
    /// <summary>The partition of the probe entity <see cref="ProbeWriteAsync"/> writes: apart from any load's rows.</summary>
    public const string ProbePartitionKey = "loader-check";

    /// <summary>Entities per page of a partition query: the most the service returns in one.</summary>
    private const int PageSize = 1000;

    private readonly TableClient _client;
    private readonly bool _createTable;
    private readonly TimeProvider _timeProvider;
    private readonly TableEntityRules _rules;
    private readonly TableTransactionSender? _sender;

    /// <param name="client">A client whose options came from <see cref="TableClientFactory.Options"/> (no retries, the headers policy).</param>
    /// <param name="createTable">Whether <see cref="PrepareAsync"/> creates a missing table, or only checks that it is there.</param>
    /// <param name="timeProvider">Measures each attempt's latency.</param>
    /// <param name="sender">Sends the batches instead of <paramref name="client"/> (<see cref="TableClientFactory.CreateSender"/>); null: the client's <see cref="TableClient.SubmitTransactionAsync"/>.</param>
    public TablesAdapter(TableClient client, bool createTable, TimeProvider timeProvider, TableTransactionSender? sender = null)
    {
        _sender = sender;
        _client = client;
        _createTable = createTable;
        _timeProvider = timeProvider;
        _rules = new TableEntityRules(client.Uri.AbsoluteUri.Length);
    }

    public string Name => "Tables";

    /// <summary>The writer the batches go through: Direct when the adapter has a sender, else the SDK's.</summary>
    public TableWriter Writer => _sender is null ? TableWriter.Sdk : TableWriter.Direct;

    public BackendLimits Limits { get; } = new(TableLimits.MaxOperationsPerBatch, TableLimits.MaxBatchPayloadBytes)
    {
        SystemPropertyNames = TableLimits.SystemPropertyNames,
    };

    public async Task PrepareAsync(CancellationToken cancellationToken)
    {
        if (_createTable)
        {
            await _client.CreateIfNotExistsAsync(cancellationToken).ConfigureAwait(false);
        }
        else
        {
            // Reading one entity proves the endpoint, the credentials and the table before any row is sent.
            await foreach (var page in _client.QueryAsync<TableEntity>("PartitionKey eq ''", maxPerPage: 1, cancellationToken: cancellationToken)
                .AsPages().ConfigureAwait(false))
            {
                _ = page;
                break;
            }
        }
    }

    public async Task<string> ProbeWriteAsync(CancellationToken cancellationToken)
    {
        var probe = new TableEntity(ProbePartitionKey, Guid.NewGuid().ToString("N")) { ["probe"] = true };
        await _client.UpsertEntityAsync(probe, TableUpdateMode.Replace, cancellationToken).ConfigureAwait(false);
        await _client.DeleteEntityAsync(probe.PartitionKey, probe.RowKey, ETag.All, cancellationToken).ConfigureAwait(false);
        return $"an entity written and deleted again in partition '{ProbePartitionKey}'";
    }

    public string? CheckPropertyName(string name) => TableEntityRules.CheckPropertyName(name);

    public EntityInspection Inspect(string partitionKey, string rowKey, ReadOnlySpan<EntityProperty> properties) =>
        _rules.Inspect(partitionKey, rowKey, properties);

    public async Task<BatchOutcome> WriteBatchAsync(EntityBatch batch, CancellationToken cancellationToken)
    {
        var exchange = ResponseHeadersPolicy.Capture();
        var started = _timeProvider.GetTimestamp();
        try
        {
            if (_sender is not null)
            {
                return await _sender.SendAsync(batch, () => _timeProvider.GetElapsedTime(started), cancellationToken).ConfigureAwait(false);
            }

            var actions = TableEntities.Actions(batch);
            var response = await _client.SubmitTransactionAsync(actions, cancellationToken).ConfigureAwait(false);
            return TableOutcomes.Written(response.GetRawResponse(), exchange.Headers, _timeProvider.GetElapsedTime(started)) with { RequestBytes = exchange.RequestBytes };
        }
        catch (RequestFailedException exception) when (exception.Status != 0)
        {
            return TableOutcomes.Refused(exception, exchange.Headers, batch, _timeProvider.GetElapsedTime(started)) with { RequestBytes = exchange.RequestBytes };
        }
        catch (Exception exception) when (NoAnswer.Is(exception, cancellationToken, answerArrived: exchange.Headers is not null))
        {
            return NoAnswer.Outcome(exception, _timeProvider.GetElapsedTime(started)) with { RequestBytes = exchange.RequestBytes };
        }
    }

    /// <summary>Reads each entity of the batch by its keys (point reads, all at once) and compares it with the row.</summary>
    public async Task<StoredComparison> CompareStoredAsync(EntityBatch batch, CancellationToken cancellationToken)
    {
        var started = _timeProvider.GetTimestamp();
        try
        {
            var reads = batch.Entities
                .Select(entity => _client.GetEntityIfExistsAsync<TableEntity>(entity.PartitionKey, entity.RowKey, cancellationToken: cancellationToken))
                .ToArray();
            var stored = await Task.WhenAll(reads).ConfigureAwait(false);
            var states = new StoredState[stored.Length];
            for (var i = 0; i < stored.Length; i++)
            {
                states[i] = TableEntityComparison.Compare(batch.Entities[i], stored[i].HasValue ? stored[i].Value : null);
            }

            return new StoredComparison(BatchOutcome.Written(200, _timeProvider.GetElapsedTime(started), null) with { Answers = stored.Length }, states);
        }
        catch (RequestFailedException exception) when (exception.Status != 0)
        {
            return new StoredComparison(TableOutcomes.Refused(exception, null, batch, _timeProvider.GetElapsedTime(started)), []);
        }
        catch (Exception exception) when (NoAnswer.Is(exception, cancellationToken))
        {
            return new StoredComparison(NoAnswer.Outcome(exception, _timeProvider.GetElapsedTime(started)), []);
        }
    }

    /// <summary>One page of a query by partition key (<c>PartitionKey eq '...'</c>); the continuation is the SDK's (next partition and row key).</summary>
    public async Task<StoredPage> ReadPartitionAsync(string partitionKey, string? continuation, CancellationToken cancellationToken)
    {
        var exchange = ResponseHeadersPolicy.Capture();
        var started = _timeProvider.GetTimestamp();
        try
        {
            var filter = TableClient.CreateQueryFilter($"PartitionKey eq {partitionKey}");
            await foreach (var page in _client.QueryAsync<TableEntity>(filter, PageSize, cancellationToken: cancellationToken).AsPages(continuation, PageSize).ConfigureAwait(false))
            {
                var latency = _timeProvider.GetElapsedTime(started);
                var entities = page.Values.Select(entity => (IStoredEntity)new TableStoredEntity(entity)).ToList();
                var outcome = TableOutcomes.Written(page.GetRawResponse(), exchange.Headers, latency);
                return new StoredPage(outcome, entities, string.IsNullOrEmpty(page.ContinuationToken) ? null : page.ContinuationToken);
            }

            return new StoredPage(BatchOutcome.Written(200, _timeProvider.GetElapsedTime(started), exchange.Headers?.RequestCharge), [], null);
        }
        catch (RequestFailedException exception) when (exception.Status != 0)
        {
            return StoredPage.Unread(TableOutcomes.Refused(exception, exchange.Headers, new EntityBatch(partitionKey, [], WriteMode.Upsert), _timeProvider.GetElapsedTime(started)));
        }
        catch (Exception exception) when (NoAnswer.Is(exception, cancellationToken, answerArrived: exchange.Headers is not null))
        {
            return StoredPage.Unread(NoAnswer.Outcome(exception, _timeProvider.GetElapsedTime(started)));
        }
    }

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;
}
