namespace Loader.Worker.Estimate;

/// <summary>
/// The services' published scalability targets the estimate plans with (Microsoft Learn: "Scalability and performance
/// targets for Table storage" and Azure Cosmos DB's "Service quotas"). Targets, not guarantees: a service may give more or less.
/// </summary>
internal static class ServiceTargets
{
    /// <summary>Azure Table Storage: entities per second one storage account takes (1 KiB entities).</summary>
    public const double TableAccountEntitiesPerSecond = 20_000;

    /// <summary>Azure Table Storage: entities per second one partition takes (1 KiB entities).</summary>
    public const double TablePartitionEntitiesPerSecond = 2_000;

    /// <summary>Cosmos DB: request units per second of one physical partition, which holds a logical partition whole.</summary>
    public const double CosmosPhysicalPartitionRequestUnitsPerSecond = 10_000;

    /// <summary>Cosmos DB: the most one logical partition (one partition key value) may hold.</summary>
    public const long CosmosLogicalPartitionBytes = 20L * 1000 * 1000 * 1000;

    /// <summary>Cosmos DB: a rough write cost without a measurement, per started KiB of item (5-6 RU for 1 KB with default indexing).</summary>
    public const double AssumedRequestUnitsPerKilobyte = 6;
}
