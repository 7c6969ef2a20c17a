using Loader.CosmosStandIn.Upstream;

namespace Loader.CosmosStandIn.Batches;

/// <summary>Reads what cosmosdb-server holds for every item some operations touch, in one request: the state they are played against.</summary>
public static class StoredItems
{
    /// <returns>cosmosdb-server's answer to a read of each distinct (partition key, id): the item and its ETag, or 404.</returns>
    public static async Task<IReadOnlyDictionary<(string PartitionKey, string Id), UpstreamResult>> ReadAsync(
        CosmosDbServerClient upstream, ContainerPath container, IEnumerable<PlannedOperation> operations, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(upstream);
        var reads = operations
            .Where(operation => operation.Key is not null)
            .DistinctBy(operation => (operation.PartitionKey, operation.Id))
            .Select(operation => new UpstreamOperation("Read", operation.Key!, operation.Id))
            .ToList();
        var results = reads.Count == 0 ? [] : await upstream.ExecuteAsync(container, reads, continueOnError: true, cancellationToken).ConfigureAwait(false);
        var stored = new Dictionary<(string, string), UpstreamResult>(reads.Count);
        for (var i = 0; i < reads.Count; i++)
        {
            stored[(reads[i].Key.Canonical, reads[i].Id)] = results[i];
        }

        return stored;
    }
}
