using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>Reads the throughput provisioned for a container: its own, else its database's (shared throughput).</summary>
internal static class CosmosThroughput
{
    /// <summary>The request units per second (the autoscale maximum when autoscaled); null when neither has any (serverless) or it cannot be read.</summary>
    public static async Task<double?> ReadAsync(Container container, CancellationToken cancellationToken)
    {
        try
        {
            var own = await container.ReadThroughputAsync(new RequestOptions(), cancellationToken).ConfigureAwait(false);
            if (own.Resource is { } dedicated)
            {
                return dedicated.AutoscaleMaxThroughput ?? dedicated.Throughput;
            }

            var database = await container.Database.ReadThroughputAsync(new RequestOptions(), cancellationToken).ConfigureAwait(false);
            return database.Resource is { } shared ? shared.AutoscaleMaxThroughput ?? shared.Throughput : null;
        }
        catch (CosmosException)
        {
            return null; // serverless accounts answer 400 to a throughput read; a missing right answers 403
        }
    }
}
