using Loader.Abstractions;

namespace Loader.Worker.Estimate;

/// <summary>What one step of the sample's ramp measured.</summary>
/// <param name="Step">Its number, from 1 (the first step is the <c>--sample</c> rows).</param>
/// <param name="Concurrency">Batches it kept in flight.</param>
/// <param name="Rows">Rows of the input's start it was to write.</param>
/// <param name="RowsWritten">Rows the service applied.</param>
/// <param name="Batches">Requests that applied them.</param>
/// <param name="Seconds">From its first request to its last answer.</param>
/// <param name="RowsPerSecond">Rows written over <paramref name="Seconds"/>.</param>
/// <param name="RequestUnits">Request units charged, when the service says.</param>
/// <param name="LatencyP50Ms">Median latency of its written batches.</param>
/// <param name="Throttled">Throttled answers.</param>
/// <param name="Cut">Whether it was stopped before all its rows were written: at the ramp's time, or once its throttling was measured.</param>
/// <param name="FirstThrottleAt">When its first throttled answer came, in seconds on the ramp's clock; null when none did.</param>
/// <param name="Sustained">What the service let through from its first throttled request on; null when there was none or too little to measure.</param>
internal sealed record RampStep(
    int Step,
    int Concurrency,
    long Rows,
    long RowsWritten,
    int Batches,
    double Seconds,
    double RowsPerSecond,
    double? RequestUnits,
    double LatencyP50Ms,
    long Throttled,
    bool Cut,
    double? FirstThrottleAt,
    SustainedRate? Sustained)
{
    /// <summary>Fewer written batches than this after the first throttle measure no rate.</summary>
    private const int FewestSustainedBatches = 3;

    /// <summary>Measures a step from its attempts; null when none of them wrote anything.</summary>
    public static RampStep? Measure(int step, int concurrency, long rows, IReadOnlyList<SampleAttempt> attempts, bool cut)
    {
        var landed = attempts.Where(attempt => attempt.Applied > 0).ToList();
        if (landed.Count == 0)
        {
            return null;
        }

        var seconds = attempts.Max(attempt => attempt.AnsweredAt) - attempts.Min(attempt => attempt.SentAt);
        var written = landed.Sum(attempt => (long)attempt.Applied);
        var charges = landed.Where(attempt => attempt.Charge is not null).ToList();
        var latencies = attempts.Where(attempt => attempt.Status == BatchStatus.Written).Select(attempt => attempt.LatencyMs).Order().ToArray();
        var throttled = attempts.Where(attempt => attempt.Status == BatchStatus.Throttled).ToList();
        // When the first refusal came back, the service's budget was spent: a request that left after that arrived after
        // it. The refused request's own departure is no such mark: on a busy machine requests reach the service in
        // another order than they were handed to the client, and one that left after it may still have found the burst.
        double? firstThrottle = throttled.Count > 0 ? throttled.Min(attempt => attempt.AnsweredAt) : null;
        return new RampStep(
            step,
            concurrency,
            rows,
            written,
            landed.Count,
            Math.Round(seconds, 3),
            seconds > 0 ? Math.Round(written / seconds, 1) : 0,
            charges.Count > 0 ? Math.Round(charges.Sum(attempt => attempt.Charge!.Value), 2) : null,
            latencies.Length > 0 ? Math.Round(latencies[(latencies.Length - 1) / 2], 1) : 0,
            attempts.Sum(attempt => (long)attempt.Throttles),
            cut,
            firstThrottle,
            firstThrottle is { } from ? SustainedAfter(from, landed, throttled) : null);
    }

    /// <summary>
    /// The rate the service let through once it throttled: from then on its budget is spent and it admits only what it
    /// refills. Measured from the first throttled answer to the answer of the last request written, counting the rows of
    /// the requests that left after that answer — which reached the service after it had refused, give or take half a
    /// batch it still held. Both ends are taken where the service's own moments can only lie inside them (a refusal before its
    /// answer, an admission before its answer), and the refill of any pause in between is in the span, so a busy machine
    /// that sends late can make the pace read low, never high.
    /// </summary>
    private static SustainedRate? SustainedAfter(double throttledAt, List<SampleAttempt> landed, List<SampleAttempt> throttled)
    {
        var after = landed.Where(attempt => attempt.SentAt > throttledAt).ToList();
        var seconds = after.Count > 0 ? after.Max(attempt => attempt.AnsweredAt) - throttledAt : 0;
        if (after.Count < FewestSustainedBatches || seconds <= 0)
        {
            return null;
        }

        // When it refused, the service held between nothing and the refused batch's worth: half of the first batch
        // admitted after is taken for what it still held.
        var first = after.MinBy(attempt => attempt.SentAt);
        var rows = after.Sum(attempt => (double)attempt.Applied) - (first.Applied / 2.0);
        double? units = after.All(attempt => attempt.Charge is not null) ? after.Sum(attempt => attempt.Charge!.Value) - (first.Charge!.Value / 2) : null;
        var halfway = throttledAt + (seconds / 2);
        return new SustainedRate(
            Math.Round(rows / seconds, 1),
            units is { } charged ? Math.Round(charged / seconds, 1) : null,
            (long)Math.Round(rows),
            after.Count,
            after.Max(attempt => attempt.Rows),
            Math.Round(seconds, 3),
            throttled.Count(attempt => attempt.SentAt > halfway));
    }
}

/// <summary>What a service let through while it throttled.</summary>
/// <param name="RowsPerSecond">Rows it admitted per second.</param>
/// <param name="RequestUnitsPerSecond">Request units it charged per second, when it charges them.</param>
/// <param name="Rows">Rows admitted over the measurement.</param>
/// <param name="Batches">Batches admitted over the measurement.</param>
/// <param name="LargestBatch">Rows of the largest of them: the service may have held as much when the measurement began.</param>
/// <param name="Seconds">How long the measurement ran.</param>
/// <param name="LateThrottles">
/// Throttled requests in its second half. None means the service stopped pushing back: something else (a cap the loader
/// paces at) held the sample under the budget once the first requests, sent before any charge was known, had found it.
/// </param>
internal sealed record SustainedRate(double RowsPerSecond, double? RequestUnitsPerSecond, long Rows, int Batches, int LargestBatch, double Seconds, int LateThrottles);
