using System.Diagnostics;
using Loader.Abstractions;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>Sends a batch as one transactional batch: atomic, up to 100 operations in one logical partition.</summary>
internal sealed class CosmosTransactionalWriter(Container container, TimeProvider timeProvider) : ICosmosBatchWriter
{
    private static readonly TransactionalBatchItemRequestOptions s_noContent = new() { EnableContentResponseOnWrite = false };

    public async Task<BatchOutcome> WriteAsync(CosmosWrite write, CancellationToken cancellationToken)
    {
        var transaction = container.CreateTransactionalBatch(write.PartitionKey);
        foreach (var operation in write.Operations)
        {
            var options = operation.IfMatchEtag is null ? s_noContent : new TransactionalBatchItemRequestOptions { IfMatchEtag = operation.IfMatchEtag, EnableContentResponseOnWrite = false };
            transaction = operation.Kind switch
            {
                CosmosOperationKind.Create => transaction.CreateItemStream(operation.Body, options),
                CosmosOperationKind.Upsert => transaction.UpsertItemStream(operation.Body, options),
                CosmosOperationKind.Replace => transaction.ReplaceItemStream(operation.Id, operation.Body, options),
                CosmosOperationKind.Delete => transaction.DeleteItem(operation.Id, options),
                CosmosOperationKind.Patch => transaction.PatchItem(operation.Id, operation.Patch, new TransactionalBatchPatchItemRequestOptions { IfMatchEtag = operation.IfMatchEtag, EnableContentResponseOnWrite = false }),
                _ => throw new UnreachableException($"operation kind {operation.Kind}"),
            };
        }

        using var response = await transaction.ExecuteAsync(cancellationToken).ConfigureAwait(false);
        return CosmosOutcomes.FromTransaction(response, timeProvider.GetElapsedTime(write.Started), response.RequestCharge + write.ReadCharge, write.FromStoredItems);
    }
}
