using Loader.CosmosStandIn.Partitioning;

namespace Loader.CosmosStandIn.Upstream;

/// <summary>What the stand-in knows of a container on cosmosdb-server: its partition key definition as created, and how its items are stored there.</summary>
/// <param name="Definition">The definition the client created the container with.</param>
/// <param name="ByFullKey">
/// Its items are stored under their whole hierarchical key (see <see cref="FullKeyStorage"/>): cosmosdb-server keys
/// an item by its first path's value and its id alone, so two items of one id under one first level would be one.
/// </param>
public sealed record UpstreamContainer(PartitionKeyDefinition Definition, bool ByFullKey);
