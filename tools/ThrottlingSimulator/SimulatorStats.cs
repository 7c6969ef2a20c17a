namespace Loader.ThrottlingSimulator;

/// <summary>The counters at one moment; served as camelCase JSON by <c>GET /_simulator/stats</c>.</summary>
/// <param name="Requests">Batches received.</param>
/// <param name="Forwarded">Batches sent on to the upstream service (in instant mode: answered with success).</param>
/// <param name="Throttled">429 answers sent.</param>
/// <param name="Faults503">503 ServerBusy answers injected.</param>
/// <param name="Faults500">500 OperationTimedOut answers injected.</param>
/// <param name="Dropped">Connections cut without an answer.</param>
/// <param name="Held">Batches held before they went on (see <see cref="SimulatorOptions.HoldRate"/>).</param>
/// <param name="Abandoned">Held batches whose client stopped waiting during the hold: not forwarded.</param>
/// <param name="UpstreamFailures">Forwarded batches the upstream service did not answer (answered 502).</param>
/// <param name="RequestChargeTotal">Sum of the <c>x-ms-request-charge</c> values sent.</param>
/// <param name="OperationsForwarded">Entity operations in the forwarded batches.</param>
public sealed record SimulatorStatsSnapshot(
    long Requests,
    long Forwarded,
    long Throttled,
    long Faults503,
    long Faults500,
    long Dropped,
    long Held,
    long Abandoned,
    long UpstreamFailures,
    double RequestChargeTotal,
    long OperationsForwarded);

/// <summary>What the simulator did to the batches it saw.</summary>
public sealed class SimulatorStats() : ProxyCounters<SimulatorStatsSnapshot>(new(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
{
    internal void RecordRequest() => Update(s => s with { Requests = s.Requests + 1 });

    // Refused and faulted batches are charged nothing, so only forwarded ones add to the charge total.
    internal void RecordThrottled() => Update(s => s with { Throttled = s.Throttled + 1 });

    internal void RecordFault(Fault fault) => Update(s => fault switch
    {
        Fault.ServerBusy => s with { Faults503 = s.Faults503 + 1 },
        Fault.OperationTimedOut => s with { Faults500 = s.Faults500 + 1 },
        Fault.Drop => s with { Dropped = s.Dropped + 1 },
        Fault.Hold => s with { Held = s.Held + 1 },
        _ => s,
    });

    internal void RecordAbandoned() => Update(s => s with { Abandoned = s.Abandoned + 1 });

    internal void RecordForwarded(int operations) =>
        Update(s => s with { Forwarded = s.Forwarded + 1, OperationsForwarded = s.OperationsForwarded + operations });

    internal void RecordCharge(double charge) => Update(s => s with { RequestChargeTotal = s.RequestChargeTotal + charge });

    internal void RecordUpstreamFailure() => Update(s => s with { UpstreamFailures = s.UpstreamFailures + 1 });
}
