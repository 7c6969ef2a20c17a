using System.Diagnostics;

namespace Loader.Benchmarks;

/// <summary>Rows done over time in a phase, to show whether the service slows down as the table fills. Thread-safe.</summary>
internal sealed class ProgressTimeline
{
    private readonly List<(double Seconds, long Rows)> _points = [];
    private readonly long _started = Stopwatch.GetTimestamp();
    private long _rows;

    public void Completed(int rows)
    {
        var seconds = Stopwatch.GetElapsedTime(_started).TotalSeconds;
        lock (_points)
        {
            _rows += rows;
            _points.Add((seconds, _rows));
        }
    }

    /// <summary>Rows per second until <paramref name="rows"/> rows were done: a rate at a given table size.</summary>
    public double RowsPerSecondOverFirst(long rows)
    {
        lock (_points)
        {
            var (seconds, done) = _points.FirstOrDefault(point => point.Rows >= rows);
            return seconds > 0 ? Math.Round(done / seconds, 1) : 0;
        }
    }

    /// <summary>Rows per second within each tenth of the rows done, first tenth first.</summary>
    public IReadOnlyList<double> RowsPerSecondByTenth()
    {
        lock (_points)
        {
            var rates = new List<double>(10);
            var (lastSeconds, lastRows) = (0.0, 0L);
            var next = 0;
            for (var tenth = 1; tenth <= 10 && _rows > 0; tenth++)
            {
                var target = (long)Math.Ceiling(_rows * tenth / 10.0);
                while (_points[next].Rows < target)
                {
                    next++;
                }

                var (seconds, rows) = _points[next];
                if (rows == lastRows || seconds <= lastSeconds)
                {
                    // One completion covered more than a tenth (a tiny run): it has no rate of its own.
                    rates.Add(rates.LastOrDefault());
                    continue;
                }

                rates.Add(Math.Round((rows - lastRows) / (seconds - lastSeconds)));
                (lastSeconds, lastRows) = (seconds, rows);
            }

            return rates;
        }
    }
}
