using Loader.ThrottlingSimulator;

namespace Loader.CosmosStandIn;

/// <summary>The counters at one moment; served as camelCase JSON by <c>GET /_standin/stats</c>.</summary>
/// <param name="BatchRequests">Batch requests received (transactional and bulk).</param>
/// <param name="Operations">Operations in those requests.</param>
/// <param name="ThrottledRequests">Batch requests answered 429 as a whole.</param>
/// <param name="ThrottledOperations">Operations answered 429: every operation of a request throttled whole, and the ones a bulk request could not afford.</param>
/// <param name="OperationsApplied">Operations that succeeded (written, replaced, read, deleted).</param>
/// <param name="ItemsCreated">Operations answered 201 Created: items that did not exist before. With nothing else writing to a container, the items it holds.</param>
/// <param name="OperationsRefused">Operations answered with their own error (409, 412, 404, 413, 400), not counting 424 and 429.</param>
/// <param name="TransactionsFailed">Atomic batches that failed as a whole (one operation refused, the others 424), leaving nothing applied.</param>
/// <param name="RequestChargeTotal">Sum of the <c>x-ms-request-charge</c> values sent on data-plane answers (batches and item requests passed through).</param>
/// <param name="PassedThrough">Requests passed to cosmosdb-server untouched.</param>
public sealed record StandInStatsSnapshot(
    long BatchRequests,
    long Operations,
    long ThrottledRequests,
    long ThrottledOperations,
    long OperationsApplied,
    long ItemsCreated,
    long OperationsRefused,
    long TransactionsFailed,
    double RequestChargeTotal,
    long PassedThrough);

/// <summary>What the stand-in did.</summary>
public sealed class StandInStats() : ProxyCounters<StandInStatsSnapshot>(new(0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
{
    internal void Record(Func<StandInStatsSnapshot, StandInStatsSnapshot> change) => Update(change);
}
