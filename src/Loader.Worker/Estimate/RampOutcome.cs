using System.Globalization;

namespace Loader.Worker.Estimate;

/// <summary>
/// What the sample's ramp found: its steps, the limit it met and the pace that limit allows. The ramp stops at the first
/// step the service throttles (its budget: the pace is what it let through from then on, not the burst before), or whose
/// median latency rose past the knee — more than twice the first step's, by more than a few milliseconds, while rows per
/// second grew by less than a tenth on the step before —, or when its time is up. With neither met, the limit is the
/// loader's concurrency when the last step ran at <c>Loader:MaxParallelBatches</c>, and none otherwise.
/// </summary>
/// <param name="Steps">The steps, in order.</param>
/// <param name="Limit"><see cref="PaceLimit.ServiceBudget"/>, <see cref="PaceLimit.ServiceLatency"/>, <see cref="PaceLimit.Concurrency"/> or <see cref="PaceLimit.None"/>.</param>
/// <param name="RowsPerSecond">The pace at the limit; with none found, the most the loader could reach (the last step's pace grown in proportion to the concurrency left).</param>
/// <param name="Spread">How far the pace may be off, as a share of it.</param>
/// <param name="RowsPerBatch">Rows per written request in the steps the pace was measured on: a load that fills its batches fuller writes more rows per request.</param>
/// <param name="BurstRows">Under a budget: rows the service let through before its first throttle beyond what its rate refilled.</param>
/// <param name="BurstRequestUnits">The same in request units, when the service charges them.</param>
/// <param name="Seconds">How long the ramp ran, its first step included.</param>
/// <param name="RowsWritten">Rows written by all the steps.</param>
/// <param name="RequestUnits">Request units all the steps were charged, when the service says.</param>
/// <param name="RequestUnitsPerRow">Request units per written row over all the steps.</param>
/// <param name="RequestBytesPerRow">Request body bytes per written row, over the written requests whose size was measured.</param>
/// <param name="Why">The limit and what showed it, in words.</param>
internal sealed record RampOutcome(
    IReadOnlyList<RampStep> Steps,
    PaceLimit Limit,
    double RowsPerSecond,
    double Spread,
    double RowsPerBatch,
    double? BurstRows,
    double? BurstRequestUnits,
    double Seconds,
    long RowsWritten,
    double? RequestUnits,
    double? RequestUnitsPerRow,
    double? RequestBytesPerRow,
    string Why)
{
    /// <summary>The knee: latency more than this many times the first step's ...</summary>
    private const double KneeLatencyFactor = 2;

    /// <summary>... and more than this many milliseconds above it: a rise of a few milliseconds is the machine's noise, not a queue at the service.</summary>
    private const double KneeLatencyMarginMs = 10;

    /// <summary>Rows per second that grow by less than this share on the step before have stopped growing.</summary>
    private const double GrowthFactor = 1.1;

    /// <summary>How far a pace measured without throttling may be off: steps are short, and their ends drain.</summary>
    private const double UnthrottledSpread = 0.1;

    /// <summary>The least spread of a pace measured under throttling; more when one batch is a larger share of what was measured.</summary>
    private const double ThrottledSpread = 0.05;

    /// <summary>Whether the ramp stops after the last of <paramref name="steps"/>: it was throttled, or met the latency knee.</summary>
    public static bool Stops(IReadOnlyList<RampStep> steps) => steps.Count > 0 && (steps[^1].Throttled > 0 || KneeAt(steps) is not null);

    /// <summary>What the steps found; null when none wrote anything.</summary>
    /// <param name="steps">The steps that wrote something.</param>
    /// <param name="attempts">Every attempt of every step, on the ramp's clock.</param>
    /// <param name="maxConcurrency"><c>Loader:MaxParallelBatches</c>.</param>
    /// <param name="seconds">How long the ramp ran.</param>
    public static RampOutcome? Conclude(IReadOnlyList<RampStep> steps, IReadOnlyList<SampleAttempt> attempts, int maxConcurrency, double seconds)
    {
        if (steps.Count == 0)
        {
            return null;
        }

        var landed = attempts.Where(attempt => attempt.Applied > 0).ToList();
        var rows = landed.Sum(attempt => (long)attempt.Applied);
        var charged = landed.Where(attempt => attempt.Charge is not null).ToList();
        double? units = charged.Count > 0 ? charged.Sum(attempt => attempt.Charge!.Value) : null;
        var chargedRows = charged.Sum(attempt => (long)attempt.Applied);
        var sized = attempts.Where(attempt => attempt.Status == Abstractions.BatchStatus.Written && attempt.RequestBytes is not null).ToList();
        var sizedRows = sized.Sum(attempt => (long)attempt.Rows);
        var outcome = new RampOutcome(
            steps,
            PaceLimit.None,
            0,
            UnthrottledSpread,
            0,
            null,
            null,
            Math.Round(seconds, 2),
            rows,
            units is { } total ? Math.Round(total, 2) : null,
            units is { } perRow && chargedRows > 0 ? Math.Round(perRow / chargedRows, 3) : null,
            sizedRows > 0 ? Math.Round(sized.Sum(attempt => (double)attempt.RequestBytes!.Value) / sizedRows, 1) : null,
            "");

        if (steps.FirstOrDefault(step => step.Throttled > 0) is { } throttled)
        {
            return Budget(outcome, throttled, landed);
        }

        if (KneeAt(steps) is { } knee)
        {
            var best = steps.Take(knee + 1).MaxBy(step => step.RowsPerSecond)!;
            var at = steps[knee];
            return outcome with
            {
                Limit = PaceLimit.ServiceLatency,
                RowsPerSecond = best.RowsPerSecond,
                RowsPerBatch = RowsPerBatchOf(best),
                Why = Invariant($"at {at.Concurrency} batches in flight (step {at.Step}) its median latency rose to {at.LatencyP50Ms:N1} ms from {steps[0].LatencyP50Ms:N1} ms while rows/s stopped growing ({steps[knee - 1].RowsPerSecond:N0}, then {at.RowsPerSecond:N0}); the best pace was {best.RowsPerSecond:N0} rows/s"),
            };
        }

        var last = steps[^1];
        if (last.Concurrency >= maxConcurrency)
        {
            var best = steps.Where(step => step.Concurrency >= maxConcurrency).MaxBy(step => step.RowsPerSecond)!;
            return outcome with
            {
                Limit = PaceLimit.Concurrency,
                RowsPerSecond = best.RowsPerSecond,
                RowsPerBatch = RowsPerBatchOf(best),
                Why = Invariant($"{best.RowsPerSecond:N0} rows/s at Loader:MaxParallelBatches ({maxConcurrency}) batches in flight, and no throttling in {seconds:N1} s of sample"),
            };
        }

        var reachable = last.RowsPerSecond * maxConcurrency / last.Concurrency;
        return outcome with
        {
            RowsPerSecond = Math.Round(reachable, 1),
            RowsPerBatch = RowsPerBatchOf(last),
            Why = Invariant($"the sample's {seconds:N1} s (Loader:Estimate:RampTime after the first step) ended at {last.Concurrency} of {maxConcurrency} batches in flight and {last.RowsPerSecond:N0} rows/s, with no throttling and no latency knee; at {maxConcurrency} in flight at most about {reachable:N0} rows/s"),
        };
    }

    private static RampOutcome Budget(RampOutcome outcome, RampStep throttled, List<SampleAttempt> landed)
    {
        var throttledAt = throttled.FirstThrottleAt!.Value;
        var rampStart = landed.Count > 0 ? landed.Min(attempt => attempt.SentAt) : throttledAt;
        var before = landed.Where(attempt => attempt.SentAt <= throttledAt).ToList();
        var refill = throttledAt - rampStart;
        if (throttled.Sustained is not { } sustained)
        {
            // Too little came through after the first throttle to measure: the step's own pace, burst and all, is an upper bound.
            return outcome with
            {
                Limit = PaceLimit.ServiceBudget,
                RowsPerSecond = throttled.RowsPerSecond,
                Spread = 0.25,
                Why = Invariant($"it throttled {throttled.Throttled:N0} times at {throttled.Concurrency} batches in flight (step {throttled.Step}), too late in the sample to measure what it lets through; the step's pace, {throttled.RowsPerSecond:N0} rows/s, is at most that"),
            };
        }

        var burstRows = Math.Max(0, before.Sum(attempt => (double)attempt.Applied) - (sustained.RowsPerSecond * refill));
        double? burstUnits = sustained.RequestUnitsPerSecond is { } unitRate && before.All(attempt => attempt.Charge is not null)
            ? Math.Max(0, before.Sum(attempt => attempt.Charge!.Value) - (unitRate * refill))
            : null;
        var units = sustained.RequestUnitsPerSecond is { } perSecond ? Invariant($"{perSecond:N0} RU/s, ") : "";
        var burst = burstUnits is { } allowance ? Invariant($"about {allowance:N0} RU ({burstRows:N0} rows)") : Invariant($"about {burstRows:N0} rows");
        return outcome with
        {
            Limit = PaceLimit.ServiceBudget,
            RowsPerSecond = sustained.RowsPerSecond,
            Spread = Math.Max(ThrottledSpread, (double)sustained.LargestBatch / Math.Max(1, sustained.Rows)),
            BurstRows = Math.Round(burstRows),
            BurstRequestUnits = burstUnits is { } value ? Math.Round(value) : null,
            Why = Invariant($"it throttled at {throttled.Concurrency} batches in flight (step {throttled.Step}) and from then let through {units}{sustained.RowsPerSecond:N0} rows/s over {sustained.Seconds:N1} s; before that, {burst} more as a burst"),
        };
    }

    private static double RowsPerBatchOf(RampStep step) => step.Batches > 0 ? Math.Round((double)step.RowsWritten / step.Batches, 1) : 0;

    /// <summary>The index of the step that met the latency knee, or null.</summary>
    private static int? KneeAt(IReadOnlyList<RampStep> steps)
    {
        for (var i = 1; i < steps.Count; i++)
        {
            var first = steps[0].LatencyP50Ms;
            if (steps[i].LatencyP50Ms > Math.Max(first * KneeLatencyFactor, first + KneeLatencyMarginMs) && steps[i].RowsPerSecond < steps[i - 1].RowsPerSecond * GrowthFactor)
            {
                return i;
            }
        }

        return null;
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
