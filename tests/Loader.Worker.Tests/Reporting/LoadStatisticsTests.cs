using Loader.Abstractions;
using Loader.Worker.Reporting;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.Time.Testing;

namespace Loader.Worker.Tests.Reporting;

/// <summary>The counters the report and the progress log are made of, under the concurrent updates a load makes.</summary>
public sealed class LoadStatisticsTests
{
    private readonly FakeTimeProvider _time = new();
    private readonly LoadStatistics _statistics;

    public LoadStatisticsTests()
    {
        _statistics = new LoadStatistics(new LoaderMetrics(new TestMeterFactory()), _time);
    }

    [Fact]
    public async Task Counters_updated_from_many_threads_at_once_lose_nothing()
    {
        const int Threads = 8;
        const int Rounds = 5_000;
        var outcome = new BatchOutcome { Status = BatchStatus.Throttled, ThrottledResponses = 2, RequestCharge = 0.25, Latency = TimeSpan.FromMilliseconds(3) };
        using var start = new Barrier(Threads);

        var workers = Enumerable.Range(0, Threads).Select(thread => Task.Factory.StartNew(
            () =>
            {
                start.SignalAndWait(TestContext.Current.CancellationToken); // all at once, to make the updates collide
                for (var i = 0; i < Rounds; i++)
                {
                    _statistics.RowsRead(5);
                    _statistics.BatchWritten(3);
                    _statistics.RowsRejected(1);
                    _statistics.RowsFailed(1, $"error {i % 3}");
                    _statistics.Attempt(outcome);
                    _statistics.Retry(TimeSpan.FromMilliseconds(1));
                    _statistics.BatchStarted();
                    _statistics.BatchFinished();
                }
            },
            TestContext.Current.CancellationToken,
            TaskCreationOptions.LongRunning,
            TaskScheduler.Default)).ToArray();
        await Task.WhenAll(workers).WaitAsync(TimeSpan.FromMinutes(1), TestContext.Current.CancellationToken);

        var counts = _statistics.Snapshot();
        const long N = Threads * Rounds;
        Assert.Equal((5 * N, 3 * N, N, N), (counts.RowsRead, counts.RowsWritten, counts.RowsRejected, counts.RowsFailed));
        Assert.Equal((N, N, 2 * N, N, 0L), (counts.Batches, counts.Requests, counts.Throttled, counts.Retries, counts.InFlight));
        Assert.Equal(TimeSpan.FromMilliseconds(N), counts.RetryWait);
        Assert.Equal(0.25 * N, counts.RequestCharge);
        Assert.Equal(5 * N, counts.RowsSettled);
        var errors = _statistics.Errors();
        Assert.Equal(3, errors.Count);
        Assert.Equal(N, errors.Sum(e => e.Rows));
        Assert.All(errors, e => Assert.Equal(Threads * Enumerable.Range(0, Rounds).Count(i => $"error {i % 3}" == e.Error), e.Rows));
    }

    [Fact]
    public void A_backend_that_reports_no_charge_shows_none_rather_than_zero()
    {
        _statistics.Attempt(new BatchOutcome { Status = BatchStatus.Written });

        Assert.Null(_statistics.Snapshot().RequestCharge);

        _statistics.Attempt(new BatchOutcome { Status = BatchStatus.Written, RequestCharge = 0 });

        Assert.Equal(0, _statistics.Snapshot().RequestCharge);
    }

    [Fact]
    public void Errors_are_kept_by_kind_up_to_twenty_most_rows_first_and_their_rows_still_counted()
    {
        for (var kind = 0; kind < 25; kind++)
        {
            _statistics.RowsFailed(kind + 1, $"kind {kind}");
        }

        _statistics.RowsFailed(100, "kind 3");

        var errors = _statistics.Errors();
        Assert.Equal(20, errors.Count);
        Assert.Equal(new ErrorCount("kind 3", 104), errors[0]);
        Assert.DoesNotContain(errors, e => e.Error == "kind 20");
        Assert.Equal(Enumerable.Range(1, 25).Sum() + 100, _statistics.Snapshot().RowsFailed); // kinds past twenty are not named, but counted
    }

    [Fact]
    public void A_load_stopped_before_it_started_counts_cpu_from_when_its_statistics_were_made_not_from_process_start()
    {
        var before = Environment.CpuUsage.TotalTime;
        var statistics = new LoadStatistics(new LoaderMetrics(new TestMeterFactory()), TimeProvider.System);

        var cpu = statistics.Times.Snapshot().Cpu;

        // The test host used seconds of CPU before this test; a load refused at start must not count them as its own.
        Assert.True(cpu <= Environment.CpuUsage.TotalTime - before, $"counted {cpu.TotalSeconds:N3} s, the process used {(Environment.CpuUsage.TotalTime - before).TotalSeconds:N3} s since");
    }

    [Fact]
    public void Elapsed_time_runs_on_the_clock_it_was_given_from_the_start()
    {
        _time.Advance(TimeSpan.FromHours(1)); // before the start: not counted
        _statistics.Start();
        _time.Advance(TimeSpan.FromSeconds(90));
        _statistics.BatchWritten(450);

        var counts = _statistics.Snapshot();
        Assert.Equal(TimeSpan.FromSeconds(90), counts.Elapsed);
        Assert.Equal(5, counts.RowsPerSecond);
    }
}
