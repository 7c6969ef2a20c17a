using Loader.CosmosStandIn.Partitioning;
using Loader.CosmosStandIn.Upstream;

namespace Loader.CosmosStandIn.Containers;

/// <summary>Where the stand-in learns a container's partition key definition: cosmosdb-server, or the instant mode's own catalog.</summary>
public interface IContainerCatalog
{
    /// <summary>The definition the container was created with; null when it does not exist.</summary>
    Task<PartitionKeyDefinition?> DefinitionAsync(ContainerPath container, CancellationToken cancellationToken);
}
