using System.Text;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Tests.Backends.Cosmos.Doubles;

/// <summary>TEST DOUBLE of the SDK's <see cref="TransactionalBatch"/>: records the operations, executes them on the <see cref="ContainerDouble"/>.</summary>
internal sealed class TransactionalBatchDouble(ContainerDouble container, string partitionKey) : TransactionalBatch
{
    public string PartitionKey { get; } = partitionKey;

    public List<BatchOperation> Operations { get; } = [];

    public override TransactionalBatch CreateItemStream(Stream streamPayload, TransactionalBatchItemRequestOptions requestOptions = null!) =>
        Add("Create", null, streamPayload, requestOptions);

    public override TransactionalBatch UpsertItemStream(Stream streamPayload, TransactionalBatchItemRequestOptions requestOptions = null!) =>
        Add("Upsert", null, streamPayload, requestOptions);

    public override TransactionalBatch ReplaceItemStream(string id, Stream streamPayload, TransactionalBatchItemRequestOptions requestOptions = null!) =>
        Add("Replace", id, streamPayload, requestOptions);

    public override Task<TransactionalBatchResponse> ExecuteAsync(CancellationToken cancellationToken = default) =>
        Task.FromResult(container.Execute(this));

    public override Task<TransactionalBatchResponse> ExecuteAsync(TransactionalBatchRequestOptions requestOptions, CancellationToken cancellationToken = default) =>
        Task.FromResult(container.Execute(this));

    private TransactionalBatchDouble Add(string kind, string? id, Stream payload, TransactionalBatchItemRequestOptions? options)
    {
        // Read now: the adapter disposes its streams once the batch has run.
        var body = new StreamReader(payload, Encoding.UTF8, leaveOpen: true).ReadToEnd();
        payload.Position = 0;
        id ??= System.Text.Json.Nodes.JsonNode.Parse(body)!["id"]!.GetValue<string>();
        Operations.Add(new BatchOperation(kind, id, body, options?.IfMatchEtag) { ContentOnWrite = options?.EnableContentResponseOnWrite });
        return this;
    }

    public override TransactionalBatch CreateItem<T>(T item, TransactionalBatchItemRequestOptions requestOptions = null!) => throw Unexpected();

    public override TransactionalBatch ReadItem(string id, TransactionalBatchItemRequestOptions requestOptions = null!) => throw Unexpected();

    public override TransactionalBatch UpsertItem<T>(T item, TransactionalBatchItemRequestOptions requestOptions = null!) => throw Unexpected();

    public override TransactionalBatch ReplaceItem<T>(string id, T item, TransactionalBatchItemRequestOptions requestOptions = null!) => throw Unexpected();

    public override TransactionalBatch DeleteItem(string id, TransactionalBatchItemRequestOptions requestOptions = null!) => throw Unexpected();

    public override TransactionalBatch PatchItem(string id, IReadOnlyList<PatchOperation> patchOperations, TransactionalBatchPatchItemRequestOptions requestOptions = null!) => throw Unexpected();

    private static NotSupportedException Unexpected() => new("TransactionalBatchDouble: the adapter sends items as streams only.");
}

/// <summary>One operation of a transactional batch as the double received it.</summary>
internal sealed record BatchOperation(string Kind, string Id, string Body, string? IfMatchETag)
{
    public bool? ContentOnWrite { get; init; }
}
