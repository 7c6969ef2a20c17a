using System.Net;
using Loader.Abstractions;
using Microsoft.Azure.Cosmos;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>
/// Makes sure the database and container are there before any row is sent: creates them when asked to (with the
/// partition key paths, hierarchical when several, and throughput), otherwise reads the container, which also proves the
/// endpoint and the credentials. Either way the container's partition key paths must be the configured ones, in order. A time to live setting on a
/// container without time to live enabled is warned about, since the service ignores the items' <c>ttl</c> there; a
/// container created for such a load gets DefaultTimeToLive -1 (enabled, items without a ttl never expire).
/// </summary>
internal static partial class CosmosTarget
{
    public static async Task PrepareAsync(CosmosClient client, CosmosOptions options, ILogger logger, CancellationToken cancellationToken)
    {
        var timeToLive = CosmosItemTimeToLive.Of(options);
        ContainerProperties properties;
        if (options.CreateIfMissing)
        {
            var database = await client.CreateDatabaseIfNotExistsAsync(options.Database, cancellationToken: cancellationToken).ConfigureAwait(false);
            var throughput = options.AutoscaleMaxThroughput is { } max ? ThroughputProperties.CreateAutoscaleThroughput(max)
                : options.Throughput is { } manual ? ThroughputProperties.CreateManualThroughput(manual)
                : null;
            // Several paths make a hierarchical key: the SDK gives the container kind MultiHash (version 2).
            var paths = options.KeyPaths.Select(path => path.Text).ToList();
            var definition = paths.Count == 1 ? new ContainerProperties(options.Container, paths[0]) : new ContainerProperties(options.Container, paths);
            // -1 turns time to live on without expiring anything by itself: only the items' own ttl does.
            definition.DefaultTimeToLive = timeToLive is null ? null : -1;
            var created = await database.Database.CreateContainerIfNotExistsAsync(definition, throughput, cancellationToken: cancellationToken).ConfigureAwait(false);
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

        var configured = options.KeyPaths.Select(path => path.Text).ToList();
        var actual = properties.PartitionKeyPaths ?? [properties.PartitionKeyPath];
        if (!actual.SequenceEqual(configured, StringComparer.Ordinal))
        {
            var setting = string.IsNullOrWhiteSpace(options.PartitionKeyPaths) ? "Loader:Cosmos:PartitionKeyPath" : "Loader:Cosmos:PartitionKeyPaths";
            throw new TargetMismatchException(
                $"container '{options.Container}' is partitioned on {Describe(actual)}, but {setting} is {Describe(configured)}: the settings must name the container's partition key paths, in order.");
        }

        if (timeToLive is not null && properties.DefaultTimeToLive is null)
        {
            TimeToLiveIgnored(logger, options.Container, timeToLive.Column is null ? "Loader:Cosmos:TimeToLive" : "Loader:Cosmos:TimeToLiveColumn");
        }
    }

    /// <summary>A key definition as people read it: <c>'/pk'</c>, or <c>'/tenantId,/userId' (hierarchical)</c>.</summary>
    private static string Describe(IReadOnlyList<string> paths) =>
        paths.Count == 1 ? $"'{paths[0]}'" : $"'{string.Join(",", paths)}' (hierarchical)";

    [LoggerMessage(Level = LogLevel.Warning, Message = "Container '{Container}' does not have time to live enabled (no DefaultTimeToLive): the service ignores the ttl {Setting} writes and the items never expire. Enable it on the container (DefaultTimeToLive -1 keeps items without a ttl forever).")]
    private static partial void TimeToLiveIgnored(ILogger logger, string container, string setting);
}
