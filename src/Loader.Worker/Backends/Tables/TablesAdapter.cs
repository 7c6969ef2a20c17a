using System.Net.Sockets;
using Azure;
using Azure.Data.Tables;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Tables;

/// <summary>
/// Writes each batch as one entity group transaction (<see cref="TableClient.SubmitTransactionAsync"/>) to Azure
/// Table Storage, Azurite or Cosmos DB for Table. One attempt per call: the client's retries are off
/// (<see cref="TableClientFactory.Options"/>), and whatever the service answered comes back as a <see cref="BatchOutcome"/>.
/// </summary>
public sealed class TablesAdapter : IBackendAdapter
{
    private readonly TableClient _client;
    private readonly bool _createTable;
    private readonly TimeProvider _timeProvider;
    private readonly TableEntityRules _rules;

    /// <param name="client">A client whose options came from <see cref="TableClientFactory.Options"/> (no retries, the headers policy).</param>
    /// <param name="createTable">Whether <see cref="PrepareAsync"/> creates a missing table, or only checks that it is there.</param>
    /// <param name="timeProvider">Measures each attempt's latency.</param>
    public TablesAdapter(TableClient client, bool createTable, TimeProvider timeProvider)
    {
        _client = client;
        _createTable = createTable;
        _timeProvider = timeProvider;
        _rules = new TableEntityRules(client.Uri.AbsoluteUri.Length);
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

    public string? CheckPropertyName(string name) => TableEntityRules.CheckPropertyName(name);

    public EntityInspection Inspect(string partitionKey, string rowKey, ReadOnlySpan<EntityProperty> properties) =>
        _rules.Inspect(partitionKey, rowKey, properties);

    public async Task<BatchOutcome> WriteBatchAsync(EntityBatch batch, CancellationToken cancellationToken)
    {
        var actions = TableEntities.Actions(batch);
        var headers = ResponseHeadersPolicy.Capture();
        var started = _timeProvider.GetTimestamp();
        try
        {
            var response = await _client.SubmitTransactionAsync(actions, cancellationToken).ConfigureAwait(false);
            return TableOutcomes.Written(response.GetRawResponse(), headers.Value, _timeProvider.GetElapsedTime(started));
        }
        catch (RequestFailedException exception) when (exception.Status != 0)
        {
            return TableOutcomes.Refused(exception, headers.Value, batch, _timeProvider.GetElapsedTime(started));
        }
        catch (Exception exception) when (!cancellationToken.IsCancellationRequested && IsNoAnswer(exception, headers.Value is not null))
        {
            return TableOutcomes.NoAnswer(exception, _timeProvider.GetElapsedTime(started));
        }
    }

    /// <summary>
    /// Failures with no usable answer from the service, which a later attempt may not meet: Azure.Core reports a
    /// connection refused, reset or unresolved as status 0, its network timeout as a cancellation the caller did not
    /// ask for, and a body cut short as an I/O error; an answer that arrived but could not be read as a multipart
    /// response (truncated, or a proxy's page) surfaces from the SDK's parser.
    /// </summary>
    private static bool IsNoAnswer(Exception exception, bool answered) => exception switch
    {
        RequestFailedException => true,
        OperationCanceledException or TimeoutException or IOException or HttpRequestException or SocketException => true,
        InvalidOperationException or FormatException or InvalidDataException when answered => true,
        _ => false,
    };

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;
}
