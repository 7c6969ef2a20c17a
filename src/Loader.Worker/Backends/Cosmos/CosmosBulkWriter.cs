using System.Diagnostics;
using Loader.Abstractions;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>
/// Sends a batch as concurrent point operations, which the SDK (AllowBulkExecution) packs into requests per physical
/// partition: not atomic, so each item's answer is its own.
/// </summary>
internal sealed class CosmosBulkWriter(Container container, TimeProvider timeProvider) : ICosmosBatchWriter
{
    private static readonly ItemRequestOptions s_noContent = new() { EnableContentResponseOnWrite = false };

    public async Task<BatchOutcome> WriteAsync(CosmosWrite write, CancellationToken cancellationToken)
    {
        var sends = new Task<ResponseMessage>[write.Operations.Count];
        for (var i = 0; i < sends.Length; i++)
        {
            sends[i] = SendAsync(write.Operations[i], write.PartitionKey, cancellationToken);
        }

        var responses = await Task.WhenAll(sends).ConfigureAwait(false);
        try
        {
            return CosmosOutcomes.FromItems(responses, timeProvider.GetElapsedTime(write.Started), write.ReadCharge, write.FromStoredItems);
        }
        finally
        {
            foreach (var response in responses)
            {
                response.Dispose();
            }
        }
    }

    /// <summary>One operation; async so that whatever it throws ends its own task, after which the others are still awaited.</summary>
    private async Task<ResponseMessage> SendAsync(CosmosOperation operation, PartitionKey partitionKey, CancellationToken cancellationToken)
    {
        var options = operation.IfMatchEtag is null ? s_noContent : new ItemRequestOptions { IfMatchEtag = operation.IfMatchEtag, EnableContentResponseOnWrite = false };
        return await (operation.Kind switch
        {
            CosmosOperationKind.Create => container.CreateItemStreamAsync(operation.Body, partitionKey, options, cancellationToken),
            CosmosOperationKind.Upsert => container.UpsertItemStreamAsync(operation.Body, partitionKey, options, cancellationToken),
            CosmosOperationKind.Replace => container.ReplaceItemStreamAsync(operation.Body, operation.Id, partitionKey, options, cancellationToken),
            CosmosOperationKind.Delete => container.DeleteItemStreamAsync(operation.Id, partitionKey, options, cancellationToken),
            CosmosOperationKind.Patch => container.PatchItemStreamAsync(operation.Id, partitionKey, operation.Patch, new PatchItemRequestOptions { IfMatchEtag = operation.IfMatchEtag, EnableContentResponseOnWrite = false }, cancellationToken),
            _ => throw new UnreachableException($"operation kind {operation.Kind}"),
        }).ConfigureAwait(false);
    }
}
