namespace Loader.Abstractions;

/// <summary>An adapter whose target has a provisioned throughput it can read (a Cosmos DB container or its database).</summary>
public interface IProvisionedThroughput
{
    /// <summary>The request units per second provisioned for the target (the autoscale maximum when autoscaled); null when none is (serverless) or it cannot be read.</summary>
    Task<double?> ReadProvisionedThroughputAsync(CancellationToken cancellationToken);
}
