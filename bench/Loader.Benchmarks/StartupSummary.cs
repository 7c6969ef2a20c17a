using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>
/// One line of the summary: a variant's medians, its rows/s against the raw Node SDK's (the figure, with the
/// target) and against the .NET raw batch ceiling's (the stricter figure, printed only), each paired run by run.
/// </summary>
internal sealed record StartupRow(
    StartupVariant Variant, double? OneRowCpuSeconds, double? OneRowSeconds, double? FirstLogSeconds, double? LoadStartingSeconds, double Seconds, double? CpuSeconds, double RowsPerSecond,
    TargetCheck Check, double OverCeiling);

/// <summary>The variants' medians over the runs, printed as a table with each one's target and result.</summary>
internal sealed record StartupSummary(IReadOnlyList<StartupRow> Rows, double NodeRowsPerSecond, double RawRowsPerSecond)
{
    public static StartupSummary Of(IReadOnlyList<StartupVariant> variants, IReadOnlyList<StartupRun> runs, double target)
    {
        var node = runs.Where(run => run.Name == StartupRun.Node).ToDictionary(run => run.Repeat);
        var raw = runs.Where(run => run.Name == StartupRun.Raw).ToDictionary(run => run.Repeat);
        var rows = variants.Select(variant =>
        {
            var own = runs.Where(run => run.Name == variant.Name).ToArray();
            return new StartupRow(
                variant,
                Statistics.Median(own.Select(run => run.OneRowCpuSeconds)),
                Statistics.Median(own.Select(run => run.OneRowSeconds)),
                Statistics.Median(own.Select(run => run.FirstLogSeconds)),
                Statistics.Median(own.Select(run => run.LoadStartingSeconds)),
                Statistics.Median(own.Select(run => run.Seconds)),
                Statistics.Median(own.Select(run => run.CpuSeconds)),
                Statistics.Median(own.Select(run => run.RowsPerSecond)),
                new TargetCheck(Invariant($"{variant.Name}: loader rows/s (wall clock) / raw Node SDK"), PairedRatio(own, node), target, AtLeast: true),
                PairedRatio(own, raw));
        }).ToArray();
        return new StartupSummary(rows, Statistics.Median(node.Values.Select(run => run.RowsPerSecond)), Statistics.Median(raw.Values.Select(run => run.RowsPerSecond)));
    }

    /// <summary>Each run against the baseline of the same repeat, so a slow spell of the machine weighs on both sides of a ratio; then the median.</summary>
    private static double PairedRatio(IEnumerable<StartupRun> own, Dictionary<int, StartupRun> baseline) =>
        Math.Round(Statistics.Median(own.Select(run => baseline[run.Repeat].RowsPerSecond > 0 ? run.RowsPerSecond / baseline[run.Repeat].RowsPerSecond : 0)), 3);

    public void Write(TextWriter output, int repeat)
    {
        output.WriteLine(repeat == 1 ? "## Results (1 run)" : Invariant($"## Results (medians of {repeat} runs; each ratio is the median of each run's pair)"));
        var table = new MarkdownTable(
            "loader", "1-row CPU s", "1-row wall s", "start → first log s", "start → load starting s", "wall s", "CPU s", "rows/s", "/ Node SDK", "target", "result", "/ .NET ceiling");
        foreach (var row in Rows)
        {
            table.Add(
                row.Variant.Name + (row.Variant.Ships ? " (the image's)" : "") + (row.Variant.Caveat is { } caveat ? $" ({caveat})" : ""),
                Format.Number(row.OneRowCpuSeconds, 2), Format.Number(row.OneRowSeconds, 2), Format.Number(row.FirstLogSeconds, 3), Format.Number(row.LoadStartingSeconds, 3), Format.Number(row.Seconds, 2), Format.Number(row.CpuSeconds, 2),
                Format.Number(row.RowsPerSecond), Format.Number(row.Check.Value, 3), row.Check.Target, row.Check.Result, Format.Number(row.OverCeiling, 3));
        }

        table.Add(StartupRun.Node + Invariant($" ({StartupBenchmark.RawInFlight} in flight, writing only: the issue's baseline)"), "–", "–", "–", "–", "–", "–", Format.Number(NodeRowsPerSecond), "1", "–", "–", "–");
        table.Add(StartupRun.Raw + Invariant($" (.NET, {StartupBenchmark.RawInFlight} in flight, writing only)"), "–", "–", "–", "–", "–", "–", Format.Number(RawRowsPerSecond), "–", "–", "–", "1");
        table.Write(output);
    }
}
