using System.Text.Json;
using Loader.Abstractions;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>
/// Writes batches to a Cosmos DB for NoSQL container, in parts: <see cref="CosmosOperationBuilder"/> turns each row
/// into the operation its write mode asks for (reading the stored items first when the mode needs them,
/// <see cref="CosmosStoredItems"/>), and the writer <c>Loader:Cosmos:Mode</c> picks sends them: one transactional batch
/// per partition batch (<see cref="CosmosTransactionalWriter"/>, atomic) or point operations the SDK packs per
/// physical partition (<see cref="CosmosBulkWriter"/>, not atomic). Items are sent as streams the loader serializes
/// itself. The SDK's own 429 retries are off (see <see cref="CosmosClientFactory"/>): every throttled answer comes
/// back here, is counted, and is retried by the pipeline after its retry-after.
/// </summary>
internal sealed class CosmosAdapter : IBackendAdapter, IProvisionedThroughput, IStoredEntityComparison, IPartitionReader
{
    /// <summary>Items per page of a partition's query.</summary>
    private const int PageSize = 1000;

    // Every item of the logical partition the request options name; the service answers from that partition alone.
    private static readonly QueryDefinition s_wholePartition = new("SELECT * FROM c");

    private readonly Container _container;
    private readonly CosmosOptions _options;
    private readonly TimeProvider _timeProvider;
    private readonly Func<CancellationToken, Task> _prepare;
    private readonly CosmosItemJson _json;
    private readonly IReadOnlyList<CosmosKeyPath> _keyPaths;
    private readonly CosmosItemTimeToLive? _timeToLive;
    private readonly CosmosOperationBuilder _operations;
    private readonly ICosmosBatchWriter _writer;
    private readonly IAsyncDisposable? _owner;

    /// <param name="container">The target container (the SDK's, or a test double).</param>
    /// <param name="options">Mode, partition key path and the rest of <c>Loader:Cosmos</c>.</param>
    /// <param name="timeProvider">Clock for latencies.</param>
    /// <param name="prepare">Checks (or creates) the database and container; see <see cref="CosmosTarget"/>.</param>
    /// <param name="owner">Disposed with the adapter: the client that owns the container.</param>
    public CosmosAdapter(Container container, CosmosOptions options, TimeProvider timeProvider, Func<CancellationToken, Task> prepare, IAsyncDisposable? owner = null)
    {
        _container = container;
        _options = options;
        _timeProvider = timeProvider;
        _prepare = prepare;
        _owner = owner;
        _keyPaths = options.KeyPaths;
        _timeToLive = CosmosItemTimeToLive.Of(options);
        _json = new CosmosItemJson(_keyPaths, options.PathSeparator, _timeToLive);
        _operations = new CosmosOperationBuilder(_json, new CosmosPatch(options.PathSeparator, writesTimeToLive: _timeToLive is not null));
        _writer = options.Mode == CosmosWriteMethod.Bulk
            ? new CosmosBulkWriter(container, timeProvider)
            : new CosmosTransactionalWriter(container, timeProvider);
        Limits = CosmosLimits.Of(_keyPaths, options.PathSeparator) with
        {
            RequiredColumns = _timeToLive?.Column is { } column
                ? new Dictionary<string, string>(StringComparer.Ordinal) { [column] = "Loader:Cosmos:TimeToLiveColumn" }
                : new Dictionary<string, string>(StringComparer.Ordinal),
        };
    }

    public string Name => "Cosmos";

    public BackendLimits Limits { get; }

    public Task PrepareAsync(CancellationToken cancellationToken) => _prepare(cancellationToken);

    public string? CheckPropertyName(string name) =>
        _timeToLive is not null && name == CosmosItemTimeToLive.JsonName && name != _timeToLive.Column
            ? $"is '{name}', the property {(_timeToLive.Column is null ? "Loader:Cosmos:TimeToLive" : "Loader:Cosmos:TimeToLiveColumn")} writes; rename the column or leave the setting out"
            : CosmosItemRules.CheckPropertyName(name, _options.PathSeparator);

    public EntityInspection Inspect(string partitionKey, string rowKey, ReadOnlySpan<EntityProperty> properties) =>
        CosmosItemRules.Inspect(partitionKey, rowKey, properties, _keyPaths, _options.PathSeparator, _timeToLive);

    public Task<BatchOutcome> WriteBatchAsync(EntityBatch batch, CancellationToken cancellationToken) =>
        AnsweredAsync((started, token) => WriteAsync(batch, started, token), failed => failed, cancellationToken);

    /// <summary>Reads the batch's items in one ReadMany request and compares each with the row as it is written.</summary>
    public Task<StoredComparison> CompareStoredAsync(EntityBatch batch, CancellationToken cancellationToken) =>
        AnsweredAsync((started, token) => CompareAsync(batch, started, token), failed => new StoredComparison(failed, []), cancellationToken);

    /// <summary>One page of a query of the logical partition (a hierarchical key's every level), as the SDK's stream iterator reads it.</summary>
    public Task<StoredPage> ReadPartitionAsync(string partitionKey, string? continuation, CancellationToken cancellationToken) =>
        AnsweredAsync((started, token) => ReadPageAsync(partitionKey, continuation, started, token), StoredPage.Unread, cancellationToken);

    public Task<double?> ReadProvisionedThroughputAsync(CancellationToken cancellationToken) => CosmosThroughput.ReadAsync(_container, cancellationToken);

    private async Task<BatchOutcome> WriteAsync(EntityBatch batch, long started, CancellationToken cancellationToken)
    {
        var partitionKey = PartitionKeyOf(batch);
        using var stored = CosmosOperationBuilder.ReadsStoredItems(batch.Mode)
            ? await CosmosStoredItems.ReadAsync(_container, batch, partitionKey, cancellationToken).ConfigureAwait(false)
            : null;
        if (stored?.Failure is { } readFailure)
        {
            return readFailure with { Latency = _timeProvider.GetElapsedTime(started) };
        }

        var operations = new List<CosmosOperation>(batch.Entities.Count);
        try
        {
            foreach (var entity in batch.Entities)
            {
                operations.Add(_operations.Build(entity, batch.Mode, stored));
            }

            var outcome = await _writer.WriteAsync(new CosmosWrite(partitionKey, operations, stored is not null, stored?.RequestCharge ?? 0, started), cancellationToken).ConfigureAwait(false);
            return stored is null ? outcome : outcome with
            {
                PatchOperations = operations.Count(operation => operation.Kind == CosmosOperationKind.Patch),
                ReadReplaceOperations = operations.Count(operation => operation.Kind == CosmosOperationKind.Replace),
            };
        }
        finally
        {
            foreach (var operation in operations)
            {
                await operation.DisposeAsync().ConfigureAwait(false);
            }
        }
    }

    private async Task<StoredComparison> CompareAsync(EntityBatch batch, long started, CancellationToken cancellationToken)
    {
        using var stored = await CosmosStoredItems.ReadAsync(_container, batch, PartitionKeyOf(batch), cancellationToken).ConfigureAwait(false);
        var latency = _timeProvider.GetElapsedTime(started);
        if (stored.Failure is { } failure)
        {
            return new StoredComparison(failure with { Latency = latency }, []);
        }

        var states = await CosmosItemComparison.CompareAsync(batch.Entities, stored, _json, cancellationToken).ConfigureAwait(false);
        return new StoredComparison(BatchOutcome.Written(200, latency, stored.RequestCharge) with { Answers = states.Length }, states);
    }

    private async Task<StoredPage> ReadPageAsync(string partitionKey, string? continuation, long started, CancellationToken cancellationToken)
    {
        var options = new QueryRequestOptions { PartitionKey = CosmosPartitionKeys.Of(partitionKey, _keyPaths.Count), MaxItemCount = PageSize };
        using var iterator = _container.GetItemQueryStreamIterator(s_wholePartition, continuation, options);
        using var response = await iterator.ReadNextAsync(cancellationToken).ConfigureAwait(false);
        if (!response.IsSuccessStatusCode)
        {
            return StoredPage.Unread(CosmosOutcomes.FromStoredRead(response, "the partition's items") with { Latency = _timeProvider.GetElapsedTime(started) });
        }

        var document = await JsonDocument.ParseAsync(response.Content, cancellationToken: cancellationToken).ConfigureAwait(false);
        var items = document.RootElement.TryGetProperty("Documents", out var documents)
            ? documents.EnumerateArray().Select(item => (IStoredEntity)new CosmosStoredItem(item, _json)).ToList()
            : [];
        var outcome = BatchOutcome.Written((int)response.StatusCode, _timeProvider.GetElapsedTime(started), response.Headers.RequestCharge);
        return new StoredPage(outcome, items, string.IsNullOrEmpty(response.ContinuationToken) ? null : response.ContinuationToken, document);
    }

    private PartitionKey PartitionKeyOf(EntityBatch batch) => CosmosPartitionKeys.Of(batch.PartitionKey, _keyPaths.Count);

    /// <summary>
    /// One request to the service, timed from its start; an exception that is an answer (the SDK's <see cref="CosmosException"/>)
    /// or the lack of one becomes an outcome, as every adapter call reports what the service said.
    /// </summary>
    private async Task<T> AnsweredAsync<T>(Func<long, CancellationToken, Task<T>> request, Func<BatchOutcome, T> failed, CancellationToken cancellationToken)
    {
        var started = _timeProvider.GetTimestamp();
        try
        {
            return await request(started, cancellationToken).ConfigureAwait(false);
        }
        catch (CosmosException exception) when (!cancellationToken.IsCancellationRequested)
        {
            return failed(CosmosOutcomes.FromException(exception, _timeProvider.GetElapsedTime(started)));
        }
        catch (Exception exception) when (NoAnswer.Is(exception, cancellationToken))
        {
            return failed(NoAnswer.Outcome(exception, _timeProvider.GetElapsedTime(started)));
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (_owner is not null)
        {
            await _owner.DisposeAsync().ConfigureAwait(false);
        }
    }
}
