using System.Text.Json;
using Loader.Abstractions;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>
/// Writes batches to a Cosmos DB for NoSQL container: one transactional batch per partition batch (atomic), or
/// point operations the SDK packs per physical partition (bulk, not atomic). Items are sent as streams the
/// loader serializes itself. The SDK's own 429 retries are off (see <see cref="CosmosClientFactory"/>): every
/// throttled answer comes back here, is counted, and is retried by the pipeline after its retry-after.
/// <para>
/// <b>Merge</b> reads the batch's existing items (one ReadMany), lays the row's properties over each and
/// replaces it under its ETag, or creates the item when missing, all in the same transaction. Patch was not
/// chosen: it allows at most 10 operations per item and cannot create a missing item.
/// </para>
/// </summary>
internal sealed class CosmosAdapter : IBackendAdapter, IProvisionedThroughput, IStoredEntityComparison
{
    private static readonly TransactionalBatchItemRequestOptions s_noContent = new() { EnableContentResponseOnWrite = false };
    private static readonly ItemRequestOptions s_noContentItem = new() { EnableContentResponseOnWrite = false };

    private readonly Container _container;
    private readonly CosmosOptions _options;
    private readonly TimeProvider _timeProvider;
    private readonly Func<CancellationToken, Task> _prepare;
    private readonly CosmosItemJson _json;
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
        _json = new CosmosItemJson(options.PartitionKeyProperty);
        Limits = new BackendLimits(CosmosLimits.MaxOperationsPerBatch, CosmosLimits.MaxBatchPayloadBytes)
        {
            SystemPropertyNames = new HashSet<string>(CosmosLimits.SystemPropertyNames.Append(options.PartitionKeyProperty), StringComparer.Ordinal),
        };
    }

    public string Name => "Cosmos";

    public BackendLimits Limits { get; }

    public Task PrepareAsync(CancellationToken cancellationToken) => _prepare(cancellationToken);

    public string? CheckPropertyName(string name) => CosmosItemRules.CheckPropertyName(name);

    public EntityInspection Inspect(string partitionKey, string rowKey, ReadOnlySpan<EntityProperty> properties) =>
        CosmosItemRules.Inspect(partitionKey, rowKey, properties, _options.PartitionKeyProperty);

    public async Task<BatchOutcome> WriteBatchAsync(EntityBatch batch, CancellationToken cancellationToken)
    {
        var started = _timeProvider.GetTimestamp();
        try
        {
            return _options.Mode == CosmosWriteMethod.Bulk
                ? await WriteBulkAsync(batch, started, cancellationToken).ConfigureAwait(false)
                : await WriteTransactionAsync(batch, started, cancellationToken).ConfigureAwait(false);
        }
        catch (CosmosException exception) when (!cancellationToken.IsCancellationRequested)
        {
            return CosmosOutcomes.FromException(exception, _timeProvider.GetElapsedTime(started));
        }
        catch (HttpRequestException exception) when (!cancellationToken.IsCancellationRequested)
        {
            return new BatchOutcome
            {
                Status = BatchStatus.Transient,
                Latency = _timeProvider.GetElapsedTime(started),
                Error = $"no answer from the service: {exception.GetBaseException().Message}",
            };
        }
    }

    /// <summary>Reads the batch's items in one ReadMany request and compares each with the row as it is written.</summary>
    public async Task<StoredComparison> CompareStoredAsync(EntityBatch batch, CancellationToken cancellationToken)
    {
        var started = _timeProvider.GetTimestamp();
        try
        {
            using var existing = await ReadExistingAsync(batch, new PartitionKey(batch.PartitionKey), cancellationToken).ConfigureAwait(false);
            var latency = _timeProvider.GetElapsedTime(started);
            if (existing.Failure is { } failure)
            {
                return new StoredComparison(failure with { Latency = latency }, []);
            }

            var states = new StoredState[batch.Entities.Count];
            for (var i = 0; i < states.Length; i++)
            {
                var entity = batch.Entities[i];
                using var written = await JsonDocument.ParseAsync(_json.Serialize(entity), cancellationToken: cancellationToken).ConfigureAwait(false);
                states[i] = CosmosItemComparison.Compare(written.RootElement, existing.Items.TryGetValue(entity.RowKey, out var item) ? item.Body : null);
            }

            return new StoredComparison(BatchOutcome.Written(200, latency, existing.RequestCharge) with { Answers = states.Length }, states);
        }
        catch (CosmosException exception) when (!cancellationToken.IsCancellationRequested)
        {
            return new StoredComparison(CosmosOutcomes.FromException(exception, _timeProvider.GetElapsedTime(started)), []);
        }
        catch (HttpRequestException exception) when (!cancellationToken.IsCancellationRequested)
        {
            return new StoredComparison(
                new BatchOutcome { Status = BatchStatus.Transient, Latency = _timeProvider.GetElapsedTime(started), Error = $"no answer from the service: {exception.GetBaseException().Message}" },
                []);
        }
    }

    private async Task<BatchOutcome> WriteTransactionAsync(EntityBatch batch, long started, CancellationToken cancellationToken)
    {
        var partitionKey = new PartitionKey(batch.PartitionKey);
        using var existing = batch.Mode == WriteMode.Merge ? await ReadExistingAsync(batch, partitionKey, cancellationToken).ConfigureAwait(false) : null;
        if (existing?.Failure is { } readFailure)
        {
            return readFailure with { Latency = _timeProvider.GetElapsedTime(started) };
        }

        var transaction = _container.CreateTransactionalBatch(partitionKey);
        var streams = new List<Stream>(batch.Entities.Count);
        try
        {
            foreach (var entity in batch.Entities)
            {
                switch (batch.Mode)
                {
                    case WriteMode.Upsert:
                        transaction.UpsertItemStream(Track(streams, _json.Serialize(entity)), s_noContent);
                        break;
                    case WriteMode.Insert:
                        transaction.CreateItemStream(Track(streams, _json.Serialize(entity)), s_noContent);
                        break;
                    default:
                        if (existing!.Items.TryGetValue(entity.RowKey, out var item))
                        {
                            transaction.ReplaceItemStream(entity.RowKey, Track(streams, _json.Merge(entity, item.Body)), new TransactionalBatchItemRequestOptions { IfMatchEtag = item.ETag, EnableContentResponseOnWrite = false });
                        }
                        else
                        {
                            transaction.CreateItemStream(Track(streams, _json.Serialize(entity)), s_noContent);
                        }

                        break;
                }
            }

            using var response = await transaction.ExecuteAsync(cancellationToken).ConfigureAwait(false);
            return CosmosOutcomes.FromTransaction(response, _timeProvider.GetElapsedTime(started), response.RequestCharge + (existing?.RequestCharge ?? 0), batch.Mode == WriteMode.Merge);
        }
        finally
        {
            foreach (var stream in streams)
            {
                await stream.DisposeAsync().ConfigureAwait(false);
            }
        }
    }

    private async Task<BatchOutcome> WriteBulkAsync(EntityBatch batch, long started, CancellationToken cancellationToken)
    {
        var partitionKey = new PartitionKey(batch.PartitionKey);
        using var existing = batch.Mode == WriteMode.Merge ? await ReadExistingAsync(batch, partitionKey, cancellationToken).ConfigureAwait(false) : null;
        if (existing?.Failure is { } readFailure)
        {
            return readFailure with { Latency = _timeProvider.GetElapsedTime(started) };
        }

        // The SDK packs these concurrent point operations into batches per physical partition.
        var writes = new Task<ResponseMessage>[batch.Entities.Count];
        for (var i = 0; i < writes.Length; i++)
        {
            writes[i] = WriteItemAsync(batch.Entities[i], batch.Mode, partitionKey, existing, cancellationToken);
        }

        var responses = await Task.WhenAll(writes).ConfigureAwait(false);
        double charge = existing?.RequestCharge ?? 0;
        int throttled = 0, transient = 0;
        TimeSpan? retryAfter = null;
        var applied = new List<int>();
        var failures = new List<OperationFailure>();
        for (var i = 0; i < responses.Length; i++)
        {
            using var response = responses[i];
            charge += response.Headers.RequestCharge;
            var (wasApplied, wasThrottled, wasTransient, failure) = CosmosOutcomes.FromItem(i, response, batch.Mode == WriteMode.Merge);
            if (wasApplied)
            {
                applied.Add(i);
            }
            else if (wasThrottled)
            {
                throttled++;
                retryAfter = Max(retryAfter, CosmosOutcomes.RetryAfter(response.Headers));
            }
            else if (wasTransient)
            {
                transient++;
            }
            else if (failure is not null)
            {
                failures.Add(failure);
            }
        }

        var latency = _timeProvider.GetElapsedTime(started);
        if (applied.Count == responses.Length)
        {
            return BatchOutcome.Written(200, latency, charge) with { Answers = responses.Length };
        }

        return new BatchOutcome
        {
            Status = throttled > 0 ? BatchStatus.Throttled : transient > 0 ? BatchStatus.Transient : BatchStatus.OperationsRejected,
            StatusCode = throttled > 0 ? 429 : 207,
            Latency = latency,
            RequestCharge = charge,
            RetryAfter = retryAfter,
            ThrottledResponses = throttled,
            Answers = responses.Length,
            AppliedOperations = applied,
            OperationFailures = failures,
            Error = $"{applied.Count} of {responses.Length} items written, {throttled} throttled, {transient} to retry, {failures.Count} refused",
        };
    }

    private async Task<ResponseMessage> WriteItemAsync(LoadEntity entity, WriteMode mode, PartitionKey partitionKey, ExistingItems? existing, CancellationToken cancellationToken)
    {
        if (mode == WriteMode.Merge && existing!.Items.TryGetValue(entity.RowKey, out var item))
        {
            await using var merged = _json.Merge(entity, item.Body);
            return await _container.ReplaceItemStreamAsync(merged, entity.RowKey, partitionKey, new ItemRequestOptions { IfMatchEtag = item.ETag, EnableContentResponseOnWrite = false }, cancellationToken).ConfigureAwait(false);
        }

        await using var stream = _json.Serialize(entity);
        return mode == WriteMode.Upsert
            ? await _container.UpsertItemStreamAsync(stream, partitionKey, s_noContentItem, cancellationToken).ConfigureAwait(false)
            : await _container.CreateItemStreamAsync(stream, partitionKey, s_noContentItem, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>The items of the batch that exist already, with their ETags (Merge, and comparing a resumed Insert's conflicts).</summary>
    private async Task<ExistingItems> ReadExistingAsync(EntityBatch batch, PartitionKey partitionKey, CancellationToken cancellationToken)
    {
        var keys = batch.Entities.Select(entity => (entity.RowKey, partitionKey)).ToList();
        using var response = await _container.ReadManyItemsStreamAsync(keys, cancellationToken: cancellationToken).ConfigureAwait(false);
        var charge = response.Headers.RequestCharge;
        if (!response.IsSuccessStatusCode)
        {
            var status = (int)response.StatusCode;
            var failure = new BatchOutcome
            {
                Status = status == 429 ? BatchStatus.Throttled : CosmosOutcomes.IsTransient(status) ? BatchStatus.Transient : BatchStatus.Failed,
                StatusCode = status,
                RequestCharge = charge,
                RetryAfter = CosmosOutcomes.RetryAfter(response.Headers),
                ThrottledResponses = status == 429 ? 1 : 0,
                Error = "reading the batch's stored items failed: " + CosmosOutcomes.Describe(status, response.ErrorMessage),
            };
            return new ExistingItems(null, charge, failure);
        }

        var document = await JsonDocument.ParseAsync(response.Content, cancellationToken: cancellationToken).ConfigureAwait(false);
        return new ExistingItems(document, charge, null);
    }

    private static Stream Track(List<Stream> streams, Stream stream)
    {
        streams.Add(stream);
        return stream;
    }

    private static TimeSpan? Max(TimeSpan? a, TimeSpan? b) => a is null ? b : b is null ? a : a > b ? a : b;

    public async ValueTask DisposeAsync()
    {
        if (_owner is not null)
        {
            await _owner.DisposeAsync().ConfigureAwait(false);
        }
    }

    /// <summary>A ReadMany answer: the documents by id, kept alive while they are merged.</summary>
    private sealed class ExistingItems : IDisposable
    {
        private readonly JsonDocument? _document;

        public ExistingItems(JsonDocument? document, double requestCharge, BatchOutcome? failure)
        {
            _document = document;
            RequestCharge = requestCharge;
            Failure = failure;
            if (document is not null && document.RootElement.TryGetProperty("Documents", out var documents))
            {
                foreach (var item in documents.EnumerateArray())
                {
                    if (item.TryGetProperty("id", out var id) && id.GetString() is { } key)
                    {
                        Items[key] = (item, item.TryGetProperty("_etag", out var etag) ? etag.GetString() ?? "" : "");
                    }
                }
            }
        }

        public Dictionary<string, (JsonElement Body, string ETag)> Items { get; } = new(StringComparer.Ordinal);

        public double RequestCharge { get; }

        public BatchOutcome? Failure { get; }

        public void Dispose() => _document?.Dispose();
    }

    /// <summary>The container's throughput, else its database's (shared throughput); null when neither has any (serverless) or it cannot be read.</summary>
    public async Task<double?> ReadProvisionedThroughputAsync(CancellationToken cancellationToken)
    {
        try
        {
            var container = await _container.ReadThroughputAsync(new RequestOptions(), cancellationToken).ConfigureAwait(false);
            if (container.Resource is { } own)
            {
                return own.AutoscaleMaxThroughput ?? own.Throughput;
            }

            var database = await _container.Database.ReadThroughputAsync(new RequestOptions(), cancellationToken).ConfigureAwait(false);
            return database.Resource is { } shared ? shared.AutoscaleMaxThroughput ?? shared.Throughput : null;
        }
        catch (CosmosException)
        {
            return null; // serverless accounts answer 400 to a throughput read; a missing right answers 403
        }
    }
}
