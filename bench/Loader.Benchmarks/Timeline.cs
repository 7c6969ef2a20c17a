using Loader.Worker.Reporting;

namespace Loader.Benchmarks;

/// <summary>Rates read off a loader report's timeline (one sample per progress interval).</summary>
internal static class Timeline
{
    /// <summary>Rows per second within each tenth of the rows written, first tenth first, interpolating between samples.</summary>
    public static IReadOnlyList<double> RowsPerSecondByTenth(IReadOnlyList<ProgressSample> timeline)
    {
        if (timeline.Count == 0 || timeline[^1].RowsWritten == 0)
        {
            return [];
        }

        var total = timeline[^1].RowsWritten;
        var rates = new List<double>(10);
        var previous = 0.0;
        for (var tenth = 1; tenth <= 10; tenth++)
        {
            var at = SecondsWhen(timeline, total * tenth / 10.0);
            rates.Add(at > previous ? Math.Round(total / 10.0 / (at - previous)) : 0);
            previous = at;
        }

        return rates;
    }

    private static double SecondsWhen(IReadOnlyList<ProgressSample> timeline, double rows)
    {
        var (seconds, written) = (0.0, 0L);
        foreach (var sample in timeline)
        {
            if (sample.RowsWritten >= rows)
            {
                var share = sample.RowsWritten > written ? (rows - written) / (sample.RowsWritten - written) : 1;
                return seconds + (share * (sample.Seconds - seconds));
            }

            (seconds, written) = (sample.Seconds, sample.RowsWritten);
        }

        return seconds;
    }
}
