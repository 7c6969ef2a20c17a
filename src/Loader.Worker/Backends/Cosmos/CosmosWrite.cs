using Microsoft.Azure.Cosmos;

namespace Loader.Worker.Backends.Cosmos;

/// <summary>One batch's operations, ready for an <see cref="ICosmosBatchWriter"/>.</summary>
/// <param name="PartitionKey">The logical partition every operation writes to.</param>
/// <param name="Operations">The operations in the batch's row order; an outcome's indexes are positions here.</param>
/// <param name="FromStoredItems">
/// The operations were built from items read just before: a 404, 409 or 412 on one means the item changed in between,
/// worth reading and writing again rather than a refused row.
/// </param>
/// <param name="ReadCharge">The request units the read before the write cost, counted into the write's.</param>
/// <param name="Started">When the attempt started (<see cref="TimeProvider.GetTimestamp"/>): its latency includes the read.</param>
internal sealed record CosmosWrite(PartitionKey PartitionKey, IReadOnlyList<CosmosOperation> Operations, bool FromStoredItems, double ReadCharge, long Started);
