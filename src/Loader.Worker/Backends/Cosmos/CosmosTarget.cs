using System.Net;
using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>
/// Makes sure the database and container are there before any row is sent: creates them when asked to (with the
/// partition key path and throughput), otherwise reads the container, which also proves the endpoint and the
/// credentials. Either way the container's partition key path must be the configured one.
/// </summary>
internal static class CosmosTarget
{
    public static async Task PrepareAsync(CosmosClient client, CosmosOptions options, CancellationToken cancellationToken)
    {
        ContainerProperties properties;
        if (options.CreateIfMissing)
        {
            var database = await client.CreateDatabaseIfNotExistsAsync(options.Database, cancellationToken: cancellationToken).ConfigureAwait(false);
            var throughput = options.AutoscaleMaxThroughput is { } max ? ThroughputProperties.CreateAutoscaleThroughput(max)
                : options.Throughput is { } manual ? ThroughputProperties.CreateManualThroughput(manual)
                : null;
            var created = await database.Database.CreateContainerIfNotExistsAsync(
                new ContainerProperties(options.Container, options.PartitionKeyPath), throughput, cancellationToken: cancellationToken).ConfigureAwait(false);
            properties = created.Resource;
        }
        else
        {
            try
            {
                var read = await client.GetContainer(options.Database, options.Container).ReadContainerAsync(cancellationToken: cancellationToken).ConfigureAwait(false);
                properties = read.Resource;
            }
            catch (CosmosException exception) when (exception.StatusCode == HttpStatusCode.NotFound)
            {
                throw new InvalidOperationException(
                    $"database '{options.Database}' or container '{options.Container}' does not exist (set Loader:Cosmos:CreateIfMissing=true to create them).", exception);
            }
        }

        if (!string.Equals(properties.PartitionKeyPath, options.PartitionKeyPath, StringComparison.Ordinal))
        {
            throw new InvalidOperationException(
                $"container '{options.Container}' is partitioned on '{properties.PartitionKeyPath}', but Loader:Cosmos:PartitionKeyPath is '{options.PartitionKeyPath}'.");
        }
    }
}
