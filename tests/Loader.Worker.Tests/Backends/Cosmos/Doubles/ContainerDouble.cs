using System.Net;
using System.Text;
using System.Text.Json.Nodes;
using Microsoft.Azure.Cosmos;
using Microsoft.Azure.Cosmos.Scripts;

#pragma warning disable CS0618 // the double has to override obsolete members of the SDK's abstract class too

namespace Loader.Worker.Tests.Backends.Cosmos.Doubles;

/// <summary>
/// TEST DOUBLE of the Cosmos DB SDK's <see cref="Container"/> (no Cosmos DB service or emulator can run here).
/// It keeps items in memory per (partition key, id) and applies what the adapter sends with the service's
/// rules as documented: a transactional batch is atomic, Create conflicts with an existing id (409), Replace
/// needs the item (404) and its ETag when one is given (412), a failed batch reports the failing operation
/// and 424 for the others. <see cref="Script"/> lets a test answer a call differently (429, errors).
/// It is not a test of the service's wire protocol: the SDK's request encoding never runs.
/// </summary>
internal sealed class ContainerDouble(string partitionKeyProperty = "pk") : Container
{
    private readonly Lock _lock = new();
    private readonly Dictionary<(string PartitionKey, string Id), (string Json, string ETag)> _items = [];
    private int _etags;

    /// <summary>Every transactional batch executed, in order.</summary>
    public List<TransactionalBatchDouble> Transactions { get; } = [];

    /// <summary>Every point operation (bulk mode), in order.</summary>
    public List<PointOperation> PointOperations { get; } = [];

    public int ReadManyCalls { get; private set; }

    /// <summary>Answers a call instead of the store when it returns a response; null lets the store answer.</summary>
    public Func<Call, object?>? Script { get; set; }

    /// <summary>Request units charged per operation by the store.</summary>
    public double ChargePerOperation { get; set; } = 6.25;

    public string PartitionKeyProperty => partitionKeyProperty;

    public int Count
    {
        get
        {
            lock (_lock)
            {
                return _items.Count;
            }
        }
    }

    public JsonObject? Get(string partitionKey, string id)
    {
        lock (_lock)
        {
            return _items.TryGetValue((partitionKey, id), out var item) ? JsonNode.Parse(item.Json)!.AsObject() : null;
        }
    }

    /// <summary>Puts an item in the store as if it had been written before.</summary>
    public void Seed(string partitionKey, string id, string json)
    {
        lock (_lock)
        {
            _items[(partitionKey, id)] = (json, NextETag());
        }
    }

    public override TransactionalBatch CreateTransactionalBatch(PartitionKey partitionKey) => new TransactionalBatchDouble(this, Value(partitionKey));

    internal TransactionalBatchResponse Execute(TransactionalBatchDouble transaction)
    {
        lock (_lock)
        {
            Transactions.Add(transaction);
        }

        if (Script?.Invoke(new Call(transaction, null)) is TransactionalBatchResponse scripted)
        {
            return scripted;
        }

        lock (_lock)
        {
            var staged = new Dictionary<(string, string), (string, string)>(_items);
            for (var i = 0; i < transaction.Operations.Count; i++)
            {
                var status = Apply(staged, transaction.PartitionKey, transaction.Operations[i]);
                if (status is not HttpStatusCode.OK and not HttpStatusCode.Created)
                {
                    return TransactionalBatchResponseDouble.Failed(transaction.Operations.Count, i, status, ChargePerOperation, $"operation {i} failed with {(int)status}");
                }
            }

            foreach (var (key, value) in staged)
            {
                _items[key] = value;
            }

            return TransactionalBatchResponseDouble.Succeeded(transaction.Operations.Count, ChargePerOperation * transaction.Operations.Count);
        }
    }

    private HttpStatusCode Apply(Dictionary<(string, string), (string Json, string ETag)> items, string partitionKey, BatchOperation operation)
    {
        var key = (partitionKey, operation.Id);
        var exists = items.TryGetValue(key, out var current);
        switch (operation.Kind)
        {
            case "Create" when exists:
                return HttpStatusCode.Conflict;
            case "Replace" when !exists:
                return HttpStatusCode.NotFound;
            case "Replace" when operation.IfMatchETag is { } etag && etag != current.ETag:
                return HttpStatusCode.PreconditionFailed;
        }

        var body = JsonNode.Parse(operation.Body)!.AsObject();
        if (body["id"]?.GetValue<string>() != operation.Id || body[partitionKeyProperty]?.GetValue<string>() != partitionKey)
        {
            return HttpStatusCode.BadRequest; // the service insists that id and partition key value agree with the request
        }

        items[key] = (operation.Body, NextETag());
        return exists ? HttpStatusCode.OK : HttpStatusCode.Created;
    }

    public override Task<ResponseMessage> ReadManyItemsStreamAsync(IReadOnlyList<(string id, PartitionKey partitionKey)> items, ReadManyRequestOptions readManyRequestOptions = null!, CancellationToken cancellationToken = default)
    {
        ReadManyCalls++;
        if (Script?.Invoke(new Call(null, new PointOperation("ReadMany", "", "", ""))) is ResponseMessage scripted)
        {
            return Task.FromResult(scripted);
        }

        var documents = new JsonArray();
        lock (_lock)
        {
            foreach (var (id, partitionKey) in items)
            {
                if (_items.TryGetValue((Value(partitionKey), id), out var item))
                {
                    var document = JsonNode.Parse(item.Json)!.AsObject();
                    document["_etag"] = item.ETag;
                    document["_rid"] = "rid";
                    documents.Add(document);
                }
            }
        }

        var body = new JsonObject { ["_rid"] = "collection", ["Documents"] = documents, ["_count"] = documents.Count };
        return Task.FromResult(Response(HttpStatusCode.OK, body.ToJsonString(), items.Count));
    }

    public override Task<ResponseMessage> UpsertItemStreamAsync(Stream streamPayload, PartitionKey partitionKey, ItemRequestOptions requestOptions = null!, CancellationToken cancellationToken = default) =>
        Point("Upsert", streamPayload, partitionKey, null, requestOptions);

    public override Task<ResponseMessage> CreateItemStreamAsync(Stream streamPayload, PartitionKey partitionKey, ItemRequestOptions requestOptions = null!, CancellationToken cancellationToken = default) =>
        Point("Create", streamPayload, partitionKey, null, requestOptions);

    public override Task<ResponseMessage> ReplaceItemStreamAsync(Stream streamPayload, string id, PartitionKey partitionKey, ItemRequestOptions requestOptions = null!, CancellationToken cancellationToken = default) =>
        Point("Replace", streamPayload, partitionKey, id, requestOptions);

    private Task<ResponseMessage> Point(string kind, Stream payload, PartitionKey partitionKey, string? id, ItemRequestOptions? options)
    {
        var body = new StreamReader(payload, Encoding.UTF8).ReadToEnd();
        var operation = new PointOperation(kind, Value(partitionKey), id ?? JsonNode.Parse(body)!["id"]!.GetValue<string>(), body) { IfMatchETag = options?.IfMatchEtag };
        lock (_lock)
        {
            PointOperations.Add(operation);
        }

        if (Script?.Invoke(new Call(null, operation)) is ResponseMessage scripted)
        {
            return Task.FromResult(scripted);
        }

        lock (_lock)
        {
            var status = Apply(_items, operation.PartitionKey, new BatchOperation(kind, operation.Id, body, operation.IfMatchETag));
            return Task.FromResult(Response(status, "", 1));
        }
    }

    public ResponseMessage Response(HttpStatusCode status, string body, int operations, TimeSpan? retryAfter = null)
    {
        var response = new ResponseMessage(status, null, (int)status >= 400 ? $"status {(int)status}" : null)
        {
            Content = new MemoryStream(Encoding.UTF8.GetBytes(body)),
        };
        response.Headers["x-ms-request-charge"] = (ChargePerOperation * operations).ToString(System.Globalization.CultureInfo.InvariantCulture);
        if (retryAfter is { } wait)
        {
            response.Headers["x-ms-retry-after-ms"] = wait.TotalMilliseconds.ToString(System.Globalization.CultureInfo.InvariantCulture);
        }

        return response;
    }

    public override Task<ContainerResponse> ReadContainerAsync(ContainerRequestOptions requestOptions = null!, CancellationToken cancellationToken = default) =>
        throw Unexpected(nameof(ReadContainerAsync));

    private string NextETag() => $"\"etag-{Interlocked.Increment(ref _etags)}\"";

    /// <summary>The string value of a partition key built from one string (what the adapter sends).</summary>
    private static string Value(PartitionKey partitionKey) => JsonNode.Parse(partitionKey.ToString())!.AsArray()[0]!.GetValue<string>();

    private static NotSupportedException Unexpected(string member) => new($"ContainerDouble: the adapter is not expected to call {member}.");

    public override Task<ItemResponse<T>> CreateItemAsync<T>(T item, PartitionKey? partitionKey, ItemRequestOptions requestOptions, CancellationToken cancellationToken) => throw Unexpected(nameof(CreateItemAsync));
    public override Task<ContainerResponse> DeleteContainerAsync(ContainerRequestOptions requestOptions, CancellationToken cancellationToken) => throw Unexpected(nameof(DeleteContainerAsync));
    public override Task<ResponseMessage> DeleteContainerStreamAsync(ContainerRequestOptions requestOptions, CancellationToken cancellationToken) => throw Unexpected(nameof(DeleteContainerStreamAsync));
    public override Task<ItemResponse<T>> DeleteItemAsync<T>(string id, PartitionKey partitionKey, ItemRequestOptions requestOptions, CancellationToken cancellationToken) => throw Unexpected(nameof(DeleteItemAsync));
    public override Task<ResponseMessage> DeleteItemStreamAsync(string id, PartitionKey partitionKey, ItemRequestOptions requestOptions, CancellationToken cancellationToken) => throw Unexpected(nameof(DeleteItemStreamAsync));
    public override ChangeFeedEstimator GetChangeFeedEstimator(string processorName, Container leaseContainer) => throw Unexpected(nameof(GetChangeFeedEstimator));
    public override ChangeFeedProcessorBuilder GetChangeFeedEstimatorBuilder(string processorName, ChangesEstimationHandler estimationDelegate, TimeSpan? estimationPeriod) => throw Unexpected(nameof(GetChangeFeedEstimatorBuilder));
    public override FeedIterator<T> GetChangeFeedIterator<T>(ChangeFeedStartFrom changeFeedStartFrom, ChangeFeedMode changeFeedMode, ChangeFeedRequestOptions changeFeedRequestOptions) => throw Unexpected(nameof(GetChangeFeedIterator));
    public override ChangeFeedProcessorBuilder GetChangeFeedProcessorBuilder<T>(string processorName, ChangesHandler<T> onChangesDelegate) => throw Unexpected(nameof(GetChangeFeedProcessorBuilder));
    public override ChangeFeedProcessorBuilder GetChangeFeedProcessorBuilder<T>(string processorName, ChangeFeedHandler<T> onChangesDelegate) => throw Unexpected(nameof(GetChangeFeedProcessorBuilder));
    public override ChangeFeedProcessorBuilder GetChangeFeedProcessorBuilder(string processorName, ChangeFeedStreamHandler onChangesDelegate) => throw Unexpected(nameof(GetChangeFeedProcessorBuilder));
    public override ChangeFeedProcessorBuilder GetChangeFeedProcessorBuilderWithManualCheckpoint<T>(string processorName, ChangeFeedHandlerWithManualCheckpoint<T> onChangesDelegate) => throw Unexpected(nameof(GetChangeFeedProcessorBuilderWithManualCheckpoint));
    public override ChangeFeedProcessorBuilder GetChangeFeedProcessorBuilderWithManualCheckpoint(string processorName, ChangeFeedStreamHandlerWithManualCheckpoint onChangesDelegate) => throw Unexpected(nameof(GetChangeFeedProcessorBuilderWithManualCheckpoint));
    public override FeedIterator GetChangeFeedStreamIterator(ChangeFeedStartFrom changeFeedStartFrom, ChangeFeedMode changeFeedMode, ChangeFeedRequestOptions changeFeedRequestOptions) => throw Unexpected(nameof(GetChangeFeedStreamIterator));
    public override Task<IReadOnlyList<FeedRange>> GetFeedRangesAsync(CancellationToken cancellationToken) => throw Unexpected(nameof(GetFeedRangesAsync));
    public override IOrderedQueryable<T> GetItemLinqQueryable<T>(bool allowSynchronousQueryExecution, string continuationToken, QueryRequestOptions requestOptions, CosmosLinqSerializerOptions linqSerializerOptions) => throw Unexpected(nameof(GetItemLinqQueryable));
    public override FeedIterator<T> GetItemQueryIterator<T>(QueryDefinition queryDefinition, string continuationToken, QueryRequestOptions requestOptions) => throw Unexpected(nameof(GetItemQueryIterator));
    public override FeedIterator<T> GetItemQueryIterator<T>(string queryText, string continuationToken, QueryRequestOptions requestOptions) => throw Unexpected(nameof(GetItemQueryIterator));
    public override FeedIterator<T> GetItemQueryIterator<T>(FeedRange feedRange, QueryDefinition queryDefinition, string continuationToken, QueryRequestOptions requestOptions) => throw Unexpected(nameof(GetItemQueryIterator));
    public override FeedIterator GetItemQueryStreamIterator(QueryDefinition queryDefinition, string continuationToken, QueryRequestOptions requestOptions) => throw Unexpected(nameof(GetItemQueryStreamIterator));
    public override FeedIterator GetItemQueryStreamIterator(string queryText, string continuationToken, QueryRequestOptions requestOptions) => throw Unexpected(nameof(GetItemQueryStreamIterator));
    public override FeedIterator GetItemQueryStreamIterator(FeedRange feedRange, QueryDefinition queryDefinition, string continuationToken, QueryRequestOptions requestOptions) => throw Unexpected(nameof(GetItemQueryStreamIterator));
    public override Task<ItemResponse<T>> PatchItemAsync<T>(string id, PartitionKey partitionKey, IReadOnlyList<PatchOperation> patchOperations, PatchItemRequestOptions requestOptions, CancellationToken cancellationToken) => throw Unexpected(nameof(PatchItemAsync));
    public override Task<ResponseMessage> PatchItemStreamAsync(string id, PartitionKey partitionKey, IReadOnlyList<PatchOperation> patchOperations, PatchItemRequestOptions requestOptions, CancellationToken cancellationToken) => throw Unexpected(nameof(PatchItemStreamAsync));
    public override Task<ResponseMessage> ReadContainerStreamAsync(ContainerRequestOptions requestOptions, CancellationToken cancellationToken) => throw Unexpected(nameof(ReadContainerStreamAsync));
    public override Task<ItemResponse<T>> ReadItemAsync<T>(string id, PartitionKey partitionKey, ItemRequestOptions requestOptions, CancellationToken cancellationToken) => throw Unexpected(nameof(ReadItemAsync));
    public override Task<ResponseMessage> ReadItemStreamAsync(string id, PartitionKey partitionKey, ItemRequestOptions requestOptions, CancellationToken cancellationToken) => throw Unexpected(nameof(ReadItemStreamAsync));
    public override Task<FeedResponse<T>> ReadManyItemsAsync<T>(IReadOnlyList<(string, PartitionKey)> items, ReadManyRequestOptions readManyRequestOptions, CancellationToken cancellationToken) => throw Unexpected(nameof(ReadManyItemsAsync));
    public override Task<int?> ReadThroughputAsync(CancellationToken cancellationToken) => throw Unexpected(nameof(ReadThroughputAsync));
    public override Task<ThroughputResponse> ReadThroughputAsync(RequestOptions requestOptions, CancellationToken cancellationToken) => throw Unexpected(nameof(ReadThroughputAsync));
    public override Task<ContainerResponse> ReplaceContainerAsync(ContainerProperties containerProperties, ContainerRequestOptions requestOptions, CancellationToken cancellationToken) => throw Unexpected(nameof(ReplaceContainerAsync));
    public override Task<ResponseMessage> ReplaceContainerStreamAsync(ContainerProperties containerProperties, ContainerRequestOptions requestOptions, CancellationToken cancellationToken) => throw Unexpected(nameof(ReplaceContainerStreamAsync));
    public override Task<ItemResponse<T>> ReplaceItemAsync<T>(T item, string id, PartitionKey? partitionKey, ItemRequestOptions requestOptions, CancellationToken cancellationToken) => throw Unexpected(nameof(ReplaceItemAsync));
    public override Task<ThroughputResponse> ReplaceThroughputAsync(int throughput, RequestOptions requestOptions, CancellationToken cancellationToken) => throw Unexpected(nameof(ReplaceThroughputAsync));
    public override Task<ThroughputResponse> ReplaceThroughputAsync(ThroughputProperties throughputProperties, RequestOptions requestOptions, CancellationToken cancellationToken) => throw Unexpected(nameof(ReplaceThroughputAsync));
    public override Task<ItemResponse<T>> UpsertItemAsync<T>(T item, PartitionKey? partitionKey, ItemRequestOptions requestOptions, CancellationToken cancellationToken) => throw Unexpected(nameof(UpsertItemAsync));
    public override string Id => throw Unexpected(nameof(Unexpected));
    public override Database Database => throw Unexpected(nameof(Unexpected));
    public override Conflicts Conflicts => throw Unexpected(nameof(Unexpected));
    public override Scripts Scripts => throw Unexpected(nameof(Unexpected));
}

/// <summary>A call the test script can answer: a transactional batch, or a point operation.</summary>
internal sealed record Call(TransactionalBatchDouble? Transaction, PointOperation? Point);

/// <summary>A point operation of bulk mode as the double received it.</summary>
internal sealed record PointOperation(string Kind, string PartitionKey, string Id, string Body)
{
    public string? IfMatchETag { get; init; }
}
