using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>The tables of <c>throttle</c>: the two runs side by side, the loader's counts against the simulator's, the pace over time, the targets.</summary>
internal static class ThrottlePrinter
{
    // Azurite and cosmosdb-server run their JavaScript on one thread: near one core busy, the store may be what limits the load, not the budget.
    private const double SaturatedCores = 0.9;

    public static void Print(TextWriter output, BenchSettings settings, IReadOnlyList<ThrottleRun> runs, ThrottleRun fixedRun, IReadOnlyList<TargetCheck> targets, bool valid)
    {
        output.WriteLine(Invariant($"## Results (B = {settings.Budget:N0} RU/s; RU/s = the service's charge total / the report's elapsed seconds)"));
        var results = new MarkdownTable("run", "seconds", "rows written", "rows failed", "rows stored", "rows lost", "RU/s", "% of B", "429s % of requests");
        foreach (var run in runs)
        {
            results.Add(run.Name, Format.Number(run.Seconds, 1), Format.Number(run.RowsWritten), Format.Number(run.RowsFailed), Format.Number(run.Stored),
                Format.Number(run.RowsLost), Format.Number(run.RequestUnitsPerSecond), Format.Number(run.PercentOfBudget, 1), Format.Number(run.ThrottledPercent, 2));
        }

        results.Write(output);

        output.WriteLine("## The loader's report against the service's counters: the simulator's, or the stand-in's (must be equal)");
        var counts = new MarkdownTable("run", "requests: report / service", "429s: report / service", "RU charged: report / service", "result");
        foreach (var run in runs)
        {
            counts.Add(run.Name, Pair(run.ReportRequests, run.Simulator.Requests), Pair(run.ReportThrottled, run.Simulator.Throttled),
                Format.Number(run.ReportRequestCharge) + " / " + Format.Number(run.Simulator.RequestChargeTotal), run.CountsDiffering == 0 ? "EQUAL" : "DIFFERENT");
        }

        counts.Write(output);

        output.WriteLine("## How the loader held the pace (the store runs JavaScript on one thread: near 1.0 core it, not the budget, sets the pace)");
        var pace = new MarkdownTable("run", "concurrency min / avg / max", "paced RU/s at the end", "store cores (Azurite, cosmosdb-server)", "loader cores", "simulator or stand-in cores (this process)");
        foreach (var run in runs)
        {
            pace.Add(run.Name, run.Concurrency is { } c ? Invariant($"{c.Min} / {c.Average:N1} / {c.Max}") : "–", Format.Number(run.PacedRequestUnitsPerSecond),
                Format.Number(run.StoreCores, 2), Format.Number(run.LoaderCores, 2), Format.Number(run.SimulatorCores, 2));
        }

        pace.Write(output);
        var busiest = runs.Max(run => run.StoreCores ?? 0);
        output.WriteLine(busiest >= SaturatedCores
            ? Invariant($"A store was SATURATED ({busiest:N2} cores): it may have set the pace, not the budget; rerun on an idle machine or with a lower --budget.")
            : Invariant($"The stores kept at most {busiest:N2} cores busy, short of saturation: the budget, not the store, set the pace."));
        output.WriteLine();

        foreach (var run in runs)
        {
            PrintConvergence(output, run);
        }

        output.WriteLine("## Targets (default settings, Table and Cosmos DB; the Fixed run is for comparison only)");
        var checks = new MarkdownTable("target", "value", "target", "result");
        foreach (var target in targets)
        {
            checks.Add(target.Name, Format.Number(target.Value, target.Value % 1 == 0 ? 0 : 2), target.Target, valid ? target.Result : "INVALID");
        }

        checks.Write(output);
        output.WriteLine(Invariant($"For comparison, {fixedRun.Name}: {fixedRun.PercentOfBudget:N1}% of B, {fixedRun.ThrottledPercent:N2}% of requests throttled, {fixedRun.RowsFailed:N0} rows failed, {fixedRun.RowsLost:N0} lost."));
        output.WriteLine(valid
            ? "Every run is sound: each loader finished and reconciled, and each store was counted."
            : "INVALID: a run failed (see the runs above); its numbers mean nothing. Exit code 3.");
    }

    /// <summary>RU/s the service accepted window by window, the 429s so far and the concurrency limit: how fast the pace converged on the budget.</summary>
    private static void PrintConvergence(TextWriter output, ThrottleRun run)
    {
        if (run.Windows.Count == 0)
        {
            return;
        }

        output.WriteLine(Invariant($"## Convergence, {run.Name} (about every {run.WindowSeconds:N0} s)"));
        var table = new MarkdownTable("seconds", "rows written", "RU/s", "% of B", "429s so far", "concurrency limit", "paced RU/s");
        foreach (var w in run.Windows)
        {
            table.Add(Invariant($"{w.FromSeconds:N0}–{w.ToSeconds:N0}"), Format.Number(w.RowsWritten), Format.Number(w.RequestUnitsPerSecond),
                Format.Number(100 * w.RequestUnitsPerSecond / run.Budget, 1), Format.Number(w.ThrottledSoFar),
                w.ConcurrencyMin == w.ConcurrencyMax ? Invariant($"{w.ConcurrencyMax}") : Invariant($"{w.ConcurrencyMin}–{w.ConcurrencyMax}"),
                Format.Number(w.PacedRequestUnitsPerSecond));
        }

        table.Write(output);
        output.WriteLine(run.SettledAfterSeconds is { } settled
            ? Invariant($"Settled after {settled:N0} s: from then on every progress interval delivered at least {Percent(ThrottleBenchmark.SettledFraction)} of B with at most {Percent(ThrottleBenchmark.SettledThrottledShare)} of its requests throttled. 429s before: {run.ThrottledBeforeSettled:N0}; after: {run.Simulator.Throttled - run.ThrottledBeforeSettled:N0}.")
            : Invariant($"Never settled: the load did not hold {Percent(ThrottleBenchmark.SettledFraction)} of B with at most {Percent(ThrottleBenchmark.SettledThrottledShare)} of requests throttled to its end ({run.Simulator.Throttled:N0} 429s in all)."));
        output.WriteLine();
    }

    private static string Percent(double fraction) => Invariant($"{100 * fraction:N0}%");

    private static string Pair(long? report, long simulator) => Format.Number(report) + " / " + Format.Number(simulator);
}
