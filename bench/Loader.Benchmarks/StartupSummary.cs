using static System.FormattableString;

namespace Loader.Benchmarks;

/// <summary>One line of the summary: a variant's medians, and its rows/s against the raw batch ceiling's, paired run by run.</summary>
internal sealed record StartupRow(
    StartupVariant Variant, double? OneRowCpuSeconds, double? OneRowSeconds, double? FirstLogSeconds, double? LoadStartingSeconds, double Seconds, double? CpuSeconds, double RowsPerSecond, TargetCheck Check);

/// <summary>The variants' medians over the runs, printed as a table with each one's target and result.</summary>
internal sealed record StartupSummary(IReadOnlyList<StartupRow> Rows, double RawRowsPerSecond)
{
    public static StartupSummary Of(IReadOnlyList<StartupVariant> variants, IReadOnlyList<StartupRun> runs, double target)
    {
        var raw = runs.Where(run => run.Name == StartupRun.Raw).ToDictionary(run => run.Repeat);
        var rows = variants.Select(variant =>
        {
            var own = runs.Where(run => run.Name == variant.Name).ToArray();

            // Paired with the ceiling of the same repeat, so a slow spell of the machine weighs on both sides of a ratio.
            var ratio = Statistics.Median(own.Select(run => raw[run.Repeat].RowsPerSecond > 0 ? run.RowsPerSecond / raw[run.Repeat].RowsPerSecond : 0));
            return new StartupRow(
                variant,
                Statistics.Median(own.Select(run => run.OneRowCpuSeconds)),
                Statistics.Median(own.Select(run => run.OneRowSeconds)),
                Statistics.Median(own.Select(run => run.FirstLogSeconds)),
                Statistics.Median(own.Select(run => run.LoadStartingSeconds)),
                Statistics.Median(own.Select(run => run.Seconds)),
                Statistics.Median(own.Select(run => run.CpuSeconds)),
                Statistics.Median(own.Select(run => run.RowsPerSecond)),
                new TargetCheck(Invariant($"{variant.Name}: loader rows/s (wall clock) / raw batch ceiling"), Math.Round(ratio, 3), target, AtLeast: true));
        }).ToArray();
        return new StartupSummary(rows, Statistics.Median(raw.Values.Select(run => run.RowsPerSecond)));
    }

    public void Write(TextWriter output, int repeat)
    {
        output.WriteLine(repeat == 1 ? "## Results (1 run)" : Invariant($"## Results (medians of {repeat} runs; the ratio is the median of each run's pair)"));
        var table = new MarkdownTable("loader", "1-row CPU s", "1-row wall s", "start → first log s", "start → load starting s", "wall s", "CPU s", "rows/s", "/ raw", "target", "result");
        foreach (var row in Rows)
        {
            table.Add(
                row.Variant.Name + (row.Variant.Ships ? " (the image's)" : "") + (row.Variant.Caveat is { } caveat ? $" ({caveat})" : ""),
                Format.Number(row.OneRowCpuSeconds, 2), Format.Number(row.OneRowSeconds, 2), Format.Number(row.FirstLogSeconds, 3), Format.Number(row.LoadStartingSeconds, 3), Format.Number(row.Seconds, 2), Format.Number(row.CpuSeconds, 2),
                Format.Number(row.RowsPerSecond), Format.Number(row.Check.Value, 3), row.Check.Target, row.Check.Result);
        }

        table.Add(StartupRun.Raw + Invariant($" ({StartupBenchmark.RawInFlight} in flight, writing only)"), "–", "–", "–", "–", "–", "–", Format.Number(RawRowsPerSecond), "1", "–", "–");
        table.Write(output);
    }
}
