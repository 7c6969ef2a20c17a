using Loader.CosmosStandIn.Upstream;
using Loader.CosmosStandIn.Wire;

namespace Loader.CosmosStandIn.Batches;

/// <summary>
/// An operation of a batch, checked and priced before anything runs: its item id and partition key, what it
/// costs, and the service's refusal when it breaks a rule that needs no stored item to decide.
/// </summary>
public sealed record PlannedOperation(BatchOperation Operation, string Id, string PartitionKeyJson, double Cost, BatchOperationResult? Refusal)
{
    public bool Writes => Operation.Type is BatchOperationType.Create or BatchOperationType.Upsert or BatchOperationType.Replace;

    /// <summary>The same operation in cosmosdb-server's JSON batch.</summary>
    public UpstreamOperation ToUpstream() => new(Operation.Type.ToString(), PartitionKeyJson, Id, Writes ? Operation.Body : default, Operation.IfMatch);
}
