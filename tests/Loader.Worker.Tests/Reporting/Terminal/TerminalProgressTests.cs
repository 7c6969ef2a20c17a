using Loader.Abstractions;
using Loader.Worker.Inputs;
using Loader.Worker.Reporting;
using Loader.Worker.Reporting.Terminal;
using Loader.Worker.Tests.Infrastructure;
using Spectre.Console.Testing;

namespace Loader.Worker.Tests.Reporting.Terminal;

public sealed class TerminalProgressTests : IDisposable
{
    private readonly TestMeterFactory _meters = new();

    public void Dispose() => _meters.Dispose();

    /// <summary>Half the input read, and of the 200 rows read 100 settled: a quarter done.</summary>
    private LoadStatistics HalfReadHalfWritten()
    {
        var statistics = new LoadStatistics(new LoaderMetrics(_meters), TimeProvider.System);
        var input = new InputProgress(1_000);
        input.Add(500);
        statistics.TrackInput(input);
        statistics.RowsRead(200);
        statistics.BatchWritten(90);
        statistics.RowsRejected(10);
        statistics.Attempt(new BatchOutcome { Status = BatchStatus.Throttled, StatusCode = 429, Latency = TimeSpan.FromMilliseconds(5), ThrottledResponses = 1 });
        statistics.BatchStarted();
        return statistics;
    }

    [Fact]
    public void Done_is_the_share_of_the_input_read_times_the_share_of_the_rows_read_that_settled()
    {
        var counts = HalfReadHalfWritten().Snapshot();

        Assert.Equal((500L, 1_000L), (counts.InputBytesRead, counts.InputBytes));
        Assert.Equal(0.25, counts.Completed);
        Assert.Null((counts with { InputBytes = 0 }).Completed); // an input of unknown size: no percent
    }

    [Fact]
    public void The_line_beside_the_bar_says_rows_pace_batches_in_flight_throttles_and_rejects()
    {
        var text = TerminalProgress.Describe(HalfReadHalfWritten().Snapshot(), 1_234.4, 16);

        Assert.Equal("90 rows · 1,234/s · 1/16 in flight · 1 throttled · 10 rejected", text);
    }

    [Fact]
    public async Task The_bar_is_drawn_with_its_percent_until_the_load_ends()
    {
        using var console = new TestConsole().Interactive().Width(140);
        var statistics = HalfReadHalfWritten();
        using var stop = new CancellationTokenSource(TimeSpan.FromMilliseconds(700));

        await new TerminalProgress(console, TimeProvider.System).RunAsync(statistics, () => (16, null), stop.Token);

        Assert.Contains("25%", console.Output, StringComparison.Ordinal);
        Assert.Contains("90 rows", console.Output, StringComparison.Ordinal);
        Assert.Contains("1/16 in flight", console.Output, StringComparison.Ordinal);
    }
}
