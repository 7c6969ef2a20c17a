using Loader.Abstractions;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>
/// Turns a row into the operation its write mode asks for, the same for both writers. Upsert upserts and Insert
/// creates. Merge reads the batch's stored items first (<see cref="CosmosStoredItems"/>): a stored item is patched
/// with a <c>set</c> per property of the row when it has at most 10, all flat and typed (<see cref="CosmosPatch"/>),
/// else the row's properties are laid over it and it is replaced under its ETag; a missing item is created. The read
/// stays for the patch too, since a patch of a missing item is a 404 and cannot create it. Replace replaces the item whatever
/// its ETag (a missing one is the service's 404, a reject), and Delete deletes it by its id (a missing one is a 404
/// the pipeline counts as already absent).
/// </summary>
internal sealed class CosmosOperationBuilder(CosmosItemJson json, CosmosPatch patch)
{
    /// <summary>Whether the mode's operations are built from the batch's stored items, read just before.</summary>
    public static bool ReadsStoredItems(WriteMode mode) => mode == WriteMode.Merge;

    /// <param name="entity">The row.</param>
    /// <param name="mode">The batch's write mode.</param>
    /// <param name="stored">The batch's stored items when <see cref="ReadsStoredItems"/> says the mode needs them, else null.</param>
    public CosmosOperation Build(LoadEntity entity, WriteMode mode, CosmosStoredItems? stored)
    {
        if (mode == WriteMode.Merge && stored!.Items.TryGetValue(entity.RowKey, out var item))
        {
            // No ETag on a patch: it sets only the row's properties, so a change to the others in between is kept, not a conflict.
            return patch.Fits(entity)
                ? new CosmosOperation(CosmosOperationKind.Patch, entity.RowKey, Stream.Null, null) { Patch = CosmosPatch.SetOperations(entity) }
                : new CosmosOperation(CosmosOperationKind.Replace, entity.RowKey, json.Merge(entity, item.Body), item.ETag);
        }

        return mode switch
        {
            WriteMode.Delete => new CosmosOperation(CosmosOperationKind.Delete, entity.RowKey, Stream.Null, null),
            WriteMode.Replace => new CosmosOperation(CosmosOperationKind.Replace, entity.RowKey, json.Serialize(entity), null),
            WriteMode.Upsert => new CosmosOperation(CosmosOperationKind.Upsert, entity.RowKey, json.Serialize(entity), null),
            _ => new CosmosOperation(CosmosOperationKind.Create, entity.RowKey, json.Serialize(entity), null),
        };
    }
}
