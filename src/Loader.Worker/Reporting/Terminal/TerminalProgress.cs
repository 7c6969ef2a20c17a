using System.Globalization;
using Spectre.Console;

namespace Loader.Worker.Reporting.Terminal;

/// <summary>
/// The live progress bar of a load on a terminal (Spectre.Console): percent done and time left when the input's size
/// is known (an unknown size shows a moving bar), rows written and rows/s, batches in flight, throttles and rejects.
/// Only for a person at a terminal; logs to a pipe or a container's collector keep their progress lines.
/// </summary>
internal sealed class TerminalProgress(IAnsiConsole console, TimeProvider timeProvider)
{
    /// <summary>How often the bar is brought up to date.</summary>
    public static readonly TimeSpan RefreshPeriod = TimeSpan.FromMilliseconds(250);

    /// <summary>The window rows/s is measured over: long enough not to flicker, short enough to follow a change of pace.</summary>
    private static readonly TimeSpan s_rateWindow = TimeSpan.FromSeconds(2);

    /// <summary>Draws the bar until <paramref name="cancellationToken"/> fires (the load is over), then leaves it at its last state.</summary>
    public async Task RunAsync(LoadStatistics statistics, Func<(int Concurrency, double? RequestUnitsPerSecond)> pace, CancellationToken cancellationToken)
    {
        var progress = new Progress(console, timeProvider)
        {
            AutoClear = false,
            HideCompleted = false,
            RefreshRate = RefreshPeriod,
        }.Columns(new TaskDescriptionColumn { Alignment = Justify.Left }, new ProgressBarColumn { Width = 24 }, new PercentageColumn(), new RemainingTimeColumn(), new SpinnerColumn());

        await progress.StartAsync(async context =>
        {
            var task = context.AddTask("starting", autoStart: true, maxValue: 100);
            var window = statistics.Snapshot();
            var rate = 0.0;
            using var timer = new PeriodicTimer(RefreshPeriod, timeProvider);
            try
            {
                while (await timer.WaitForNextTickAsync(cancellationToken).ConfigureAwait(false))
                {
                    var now = statistics.Snapshot();
                    if (now.Elapsed - window.Elapsed >= s_rateWindow)
                    {
                        rate = (now.RowsWritten - window.RowsWritten) / (now.Elapsed - window.Elapsed).TotalSeconds;
                        window = now;
                    }

                    Update(task, now, rate, pace().Concurrency);
                }
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                // The load is over: one last update at its own average, and the bar stays on screen.
            }

            var last = statistics.Snapshot();
            Update(task, last, last.RowsPerSecond, pace().Concurrency);
            task.StopTask();
        }).ConfigureAwait(false);
    }

    internal static void Update(ProgressTask task, LoadCounts counts, double rowsPerSecond, int concurrency)
    {
        task.Description = Markup.Escape(Describe(counts, rowsPerSecond, concurrency));
        if (counts.Completed is { } done)
        {
            task.IsIndeterminate = false;
            task.Value = Math.Max(task.Value, done * 100); // never backwards: rows read ahead of the writes make it dip
        }
        else
        {
            task.IsIndeterminate = true;
        }
    }

    /// <summary>The text beside the bar: what a person watching a load wants to see move.</summary>
    internal static string Describe(LoadCounts counts, double rowsPerSecond, int concurrency) => string.Create(
        CultureInfo.InvariantCulture,
        $"{counts.RowsWritten:N0} rows · {rowsPerSecond:N0}/s · {counts.InFlight}/{concurrency} in flight · {counts.Throttled:N0} throttled · {counts.RowsRejected:N0} rejected");
}
