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
            firstThrottle is { } from ? SustainedAfter(from, landed) : null);
    }

    /// <summary>
    /// The rate the service let through once it throttled: from then on its budget is spent and it admits only what it
    /// refills. Measured from the first request sent after the throttle and written to the answer of the last, counting the rows
    /// of those after the first: at the first the service had just enough, so what it admitted after is what it refilled,
    /// give or take one batch it still held. The span runs to the last answer rather than the last request's departure,
    /// so a request that left late (a busy machine) can make the pace read low, never high.
    /// </summary>
    private static SustainedRate? SustainedAfter(double throttledAt, List<SampleAttempt> landed)
    {
        var after = landed.Where(attempt => attempt.SentAt > throttledAt).OrderBy(attempt => attempt.SentAt).ToList();
        var seconds = after.Count > 0 ? after.Max(attempt => attempt.AnsweredAt) - after[0].SentAt : 0;
        if (after.Count < FewestSustainedBatches || seconds <= 0)
        {
            return null;
        }

        var counted = after.Skip(1).ToList();
        var rows = counted.Sum(attempt => (long)attempt.Applied);
        double? units = counted.All(attempt => attempt.Charge is not null) ? counted.Sum(attempt => attempt.Charge!.Value) : null;
        return new SustainedRate(
            Math.Round(rows / seconds, 1),
            units is { } charged ? Math.Round(charged / seconds, 1) : null,
            rows,
            counted.Count,
            after.Max(attempt => attempt.Rows),
            Math.Round(seconds, 3));
    }
}

/// <summary>What a service let through while it throttled.</summary>
/// <param name="RowsPerSecond">Rows it admitted per second.</param>
/// <param name="RequestUnitsPerSecond">Request units it charged per second, when it charges them.</param>
/// <param name="Rows">Rows admitted over the measurement.</param>
/// <param name="Batches">Batches admitted over the measurement.</param>
/// <param name="LargestBatch">Rows of the largest of them: the service may have held as much when the measurement began.</param>
/// <param name="Seconds">How long the measurement ran.</param>
internal sealed record SustainedRate(double RowsPerSecond, double? RequestUnitsPerSecond, long Rows, int Batches, int LargestBatch, double Seconds);
