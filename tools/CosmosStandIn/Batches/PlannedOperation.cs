using Loader.CosmosStandIn.Partitioning;
using Loader.CosmosStandIn.Upstream;
using Loader.CosmosStandIn.Wire;

namespace Loader.CosmosStandIn.Batches;

/// <summary>
/// An operation of a batch, checked and priced before anything runs: its item id and partition key, what it
/// costs, and the service's refusal when it breaks a rule that needs no stored item to decide.
/// </summary>
/// <param name="Operation">The operation as decoded.</param>
/// <param name="Id">The item's id.</param>
/// <param name="Key">Its partition key value; null only when refused for having none.</param>
/// <param name="Cost">Request units it costs; for a patch, what it is let in for: its actual cost is the size of the patched item, known once it ran.</param>
/// <param name="Refusal">The service's answer when it is refused outright.</param>
public sealed record PlannedOperation(BatchOperation Operation, string Id, PartitionKeyValue? Key, double Cost, BatchOperationResult? Refusal)
{
    /// <summary>The partial update, for a patch.</summary>
    public PatchSpec? Patch { get; init; }

    /// <summary>The <c>ttl</c> of the item a create, upsert or replace writes, as JSON text; null when it has none.</summary>
    public string? Ttl { get; init; }

    /// <summary>Creates, upserts, replaces and patches: the operations that write an item's body.</summary>
    public bool Writes => Operation.Type is BatchOperationType.Create or BatchOperationType.Upsert or BatchOperationType.Replace or BatchOperationType.Patch;

    /// <summary>The canonical partition key: what locks, budgets and stored items are keyed by.</summary>
    public string PartitionKey => Key?.Canonical ?? "";

    /// <summary>The same operation in cosmosdb-server's JSON batch (a patch goes as the replace of the patched item, see <see cref="OperationPlayer"/>).</summary>
    public UpstreamOperation ToUpstream() =>
        new(Operation.Type.ToString(), Key!, Id, Writes ? Operation.Body : default, Operation.IfMatch);
}
