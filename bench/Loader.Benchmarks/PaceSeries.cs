using Loader.Worker.Reporting;

namespace Loader.Benchmarks;

/// <summary>
/// Reads the loader's timeline (one sample per progress interval) as a throttled load: windows of a few samples
/// each, short enough to show the pace converging and few enough to fit on a screen, and when the pace settled.
/// </summary>
internal static class PaceSeries
{
    /// <summary>Windows of about <paramref name="step"/> seconds; the last one ends where the load did.</summary>
    public static IReadOnlyList<PaceWindow> Windows(IReadOnlyList<ProgressSample> timeline, double step)
    {
        var windows = new List<PaceWindow>();
        var start = new ProgressSample(0, 0, 0, 0, 0, 0, null);
        var (low, high) = (int.MaxValue, 0);
        for (var i = 0; i < timeline.Count; i++)
        {
            var sample = timeline[i];
            (low, high) = (Math.Min(low, sample.Concurrency), Math.Max(high, sample.Concurrency));

            // Samples arrive a few milliseconds after each tick, so a window closes at the sample nearest its end.
            // The final sample, taken when the load ended, joins the window before it when it comes soon after.
            var last = i == timeline.Count - 1;
            var due = sample.Seconds - start.Seconds >= step * 0.9;
            var endsSoon = !last && timeline[^1].Seconds - sample.Seconds < step / 2;
            if (last || (due && !endsSoon))
            {
                var seconds = sample.Seconds - start.Seconds;
                windows.Add(new PaceWindow(start.Seconds, sample.Seconds, sample.RowsWritten,
                    seconds > 0 ? Math.Round((sample.RequestCharge - start.RequestCharge) / seconds) : 0,
                    sample.Throttled, low, high, sample.PacedRequestUnitsPerSecond));
                start = sample;
                (low, high) = (int.MaxValue, 0);
            }
        }

        return windows;
    }

    /// <summary>A whole number of ten seconds, at least <paramref name="shortest"/>, so a load of this length takes about <paramref name="rows"/> windows at most.</summary>
    public static double Step(double loadSeconds, int rows, double shortest) =>
        Math.Max(shortest, Math.Ceiling(loadSeconds / rows / 10) * 10);

    /// <summary>
    /// When the pace settled: the start of the first progress interval from which on every interval delivered at
    /// least <paramref name="fraction"/> of the budget with at most <paramref name="throttledShare"/> of its requests
    /// refused (a load that keeps the bucket empty by a storm of 429s has not settled), and the 429s before then.
    /// The last interval, in which the load drains its final batches, is left out. Null when the pace never held.
    /// </summary>
    public static (double Seconds, long ThrottledBefore)? Settled(IReadOnlyList<ProgressSample> timeline, double budget, double fraction, double throttledShare)
    {
        (double Seconds, long ThrottledBefore)? settled = null;
        var previous = new ProgressSample(0, 0, 0, 0, 0, 0, null);
        for (var i = 0; i < timeline.Count - 1; i++)
        {
            var sample = timeline[i];
            var seconds = sample.Seconds - previous.Seconds;
            var rate = seconds > 0 ? (sample.RequestCharge - previous.RequestCharge) / seconds : 0;
            var requests = sample.Requests - previous.Requests;
            if (rate < fraction * budget || sample.Throttled - previous.Throttled > throttledShare * requests)
            {
                settled = null;
            }
            else
            {
                settled ??= (previous.Seconds, previous.Throttled);
            }

            previous = sample;
        }

        return settled;
    }
}
