using Loader.Abstractions;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>
/// Sends a batch's operations to the container one way (<c>Loader:Cosmos:Mode</c>) and classifies the answer through
/// <see cref="CosmosOutcomes"/>. Exceptions (the SDK's, no answer) are left to the adapter.
/// </summary>
internal interface ICosmosBatchWriter
{
    Task<BatchOutcome> WriteAsync(CosmosWrite write, CancellationToken cancellationToken);
}
