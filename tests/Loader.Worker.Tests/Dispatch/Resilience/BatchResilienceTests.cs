using Loader.Abstractions;
using Loader.Worker.Configuration;
using Loader.Worker.Dispatch.Resilience;
using Loader.Worker.Reporting;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.Time.Testing;

namespace Loader.Worker.Tests.Dispatch.Resilience;

/// <summary>The retry policy on a simulated clock: what the service says is waited exactly, and nothing is waited for real.</summary>
public sealed class BatchResilienceTests
{
    private readonly FakeTimeProvider _time = new();
    private readonly LoadStatistics _statistics;

    public BatchResilienceTests()
    {
        _statistics = new LoadStatistics(new LoaderMetrics(new TestMeterFactory()), _time);
    }

    /// <summary>Runs the retry pipeline over scripted outcomes; returns the final outcome and the times of the attempts.</summary>
    /// <remarks>The jitter is drawn from a seeded source, so every run waits the same and an assertion on it cannot pass or fail by chance.</remarks>
    private async Task<(BatchOutcome Final, List<TimeSpan> Attempts)> RunAsync(RetryOptions options, params BatchOutcome[] script)
    {
        var resilience = new BatchResilience(options, _statistics, _time, new Random(5).NextDouble);
        var start = _time.GetUtcNow();
        var attempts = new List<TimeSpan>();
        var run = resilience.Retry.ExecuteAsync(_ =>
        {
            attempts.Add(_time.GetUtcNow() - start);
            return ValueTask.FromResult(script[Math.Min(attempts.Count - 1, script.Length - 1)]);
        }).AsTask();
        while (!run.IsCompleted)
        {
            _time.Advance(TimeSpan.FromMilliseconds(1));
            await Task.Yield();
        }

        return (await run, attempts);
    }

    private static BatchOutcome Throttled(TimeSpan? retryAfter) => new() { Status = BatchStatus.Throttled, RetryAfter = retryAfter, ThrottledResponses = 1 };

    private static readonly BatchOutcome s_transient = new() { Status = BatchStatus.Transient, Error = "reset" };
    private static readonly BatchOutcome s_written = BatchOutcome.Written(202, TimeSpan.FromMilliseconds(5), null);

    [Fact]
    public async Task Waits_exactly_the_retry_after_the_service_gives()
    {
        var (final, attempts) = await RunAsync(new RetryOptions(), Throttled(TimeSpan.FromMilliseconds(730)), Throttled(TimeSpan.FromMilliseconds(1_250)), s_written);

        Assert.Equal(BatchStatus.Written, final.Status);
        Assert.Equal([TimeSpan.Zero, TimeSpan.FromMilliseconds(730), TimeSpan.FromMilliseconds(1_980)], attempts);
        Assert.Equal(2, _statistics.Snapshot().Retries);
        Assert.Equal(TimeSpan.FromMilliseconds(1_980), _statistics.Snapshot().RetryWait);
    }

    /// <summary>Polly's retry strategy takes one retry or more: none is no strategy, not a crash when the pipeline is built.</summary>
    [Fact]
    public async Task No_retries_sends_a_batch_once_and_returns_what_the_service_said()
    {
        var (final, attempts) = await RunAsync(new RetryOptions { MaxAttempts = 0, MaxThrottledWait = TimeSpan.Zero }, Throttled(TimeSpan.FromMilliseconds(730)), s_written);

        Assert.Equal(BatchStatus.Throttled, final.Status);
        Assert.Equal([TimeSpan.Zero], attempts);
        Assert.Equal(0, _statistics.Snapshot().Retries);
    }

    [Fact]
    public async Task A_retry_after_longer_than_the_maximum_delay_is_capped()
    {
        var (_, attempts) = await RunAsync(new RetryOptions { MaxDelay = TimeSpan.FromSeconds(2) }, Throttled(TimeSpan.FromMinutes(5)), s_written);

        Assert.Equal(TimeSpan.FromSeconds(2), attempts[1]);
    }

    [Fact]
    public async Task Without_a_retry_after_it_backs_off_exponentially_with_jitter_up_to_the_maximum()
    {
        var options = new RetryOptions { BaseDelay = TimeSpan.FromMilliseconds(100), MaxDelay = TimeSpan.FromSeconds(3), MaxAttempts = 8 };

        var (final, attempts) = await RunAsync(options, s_transient, s_transient, s_transient, s_transient, s_transient, s_transient, s_transient, s_written);

        Assert.Equal(BatchStatus.Written, final.Status);
        var waits = attempts.Zip(attempts.Skip(1), (a, b) => b - a).ToList();
        Assert.All(waits, wait => Assert.InRange(wait, TimeSpan.FromMilliseconds(1), TimeSpan.FromSeconds(3)));
        Assert.True(waits.Skip(4).Average(w => w.TotalMilliseconds) > 2 * waits.Take(3).Average(w => w.TotalMilliseconds), $"waits should grow: {string.Join(", ", waits)}");
        var unjittered = Enumerable.Range(0, waits.Count).Select(k => TimeSpan.FromMilliseconds(Math.Min(100 * Math.Pow(2, k), 3_000))).ToList();
        Assert.NotEqual(unjittered, waits); // jitter moves the waits off the plain doubling
    }

    [Fact]
    public async Task When_the_retry_budget_is_spent_the_last_outcome_comes_back_with_its_error()
    {
        var (final, attempts) = await RunAsync(new RetryOptions { MaxAttempts = 3, BaseDelay = TimeSpan.FromMilliseconds(10) }, s_transient);

        Assert.Equal(BatchStatus.Transient, final.Status);
        Assert.Equal("reset", final.Error);
        Assert.Equal(4, attempts.Count);
    }

    [Fact]
    public async Task Refused_rows_and_failures_are_not_retried()
    {
        var (final, attempts) = await RunAsync(new RetryOptions(), new BatchOutcome { Status = BatchStatus.Failed, Error = "403" });

        Assert.Equal(BatchStatus.Failed, final.Status);
        Assert.Single(attempts);
    }

    /// <summary>
    /// While the loader learns a budget it was not told of, other batches can take the budget a retried batch waited
    /// for: refused more often than it has attempts, within a few seconds, it is still retried.
    /// </summary>
    [Fact]
    public async Task A_batch_throttled_more_often_than_it_has_attempts_is_retried_until_the_throttled_wait_has_passed()
    {
        var throttledFifteenTimes = Enumerable.Repeat(Throttled(TimeSpan.FromMilliseconds(100)), 15).Append(s_written).ToArray();

        var (final, attempts) = await RunAsync(new RetryOptions { MaxAttempts = 10, MaxThrottledWait = TimeSpan.FromMinutes(1) }, throttledFifteenTimes);

        Assert.Equal(BatchStatus.Written, final.Status);
        Assert.Equal(16, attempts.Count);
        Assert.Equal(TimeSpan.FromMilliseconds(1_500), attempts[^1]);
    }

    [Fact]
    public async Task A_batch_throttled_without_end_fails_on_the_first_answer_after_the_throttled_wait()
    {
        var (final, attempts) = await RunAsync(new RetryOptions { MaxAttempts = 2, MaxThrottledWait = TimeSpan.FromSeconds(30) }, Throttled(TimeSpan.FromSeconds(4)));

        Assert.Equal(BatchStatus.Throttled, final.Status);
        // Attempts at 0, 4, ... 28 s are all within 30 s of the first throttled answer (at 0); the one at 32 s is not.
        Assert.Equal(Enumerable.Range(0, 9).Select(i => TimeSpan.FromSeconds(4 * i)), attempts);
    }

    [Fact]
    public async Task Transient_failures_are_retried_as_many_times_as_the_attempts_say_whatever_the_throttled_wait()
    {
        var (final, attempts) = await RunAsync(new RetryOptions { MaxAttempts = 3, BaseDelay = TimeSpan.FromMilliseconds(10), MaxThrottledWait = TimeSpan.FromHours(1) }, s_transient);

        Assert.Equal(BatchStatus.Transient, final.Status);
        Assert.Equal(4, attempts.Count);
    }

    [Fact]
    public async Task No_throttled_wait_leaves_the_attempts_alone_to_decide()
    {
        var (final, attempts) = await RunAsync(new RetryOptions { MaxAttempts = 3, MaxThrottledWait = TimeSpan.Zero }, Throttled(TimeSpan.FromMilliseconds(100)));

        Assert.Equal(BatchStatus.Throttled, final.Status);
        Assert.Equal(4, attempts.Count);
    }

    [Fact]
    public async Task No_attempts_still_retries_a_throttled_batch_for_the_throttled_wait_but_not_a_failed_one()
    {
        var (throttled, throttledAttempts) = await RunAsync(new RetryOptions { MaxAttempts = 0, MaxThrottledWait = TimeSpan.FromSeconds(1) }, Throttled(TimeSpan.FromMilliseconds(400)), s_written);
        var (transient, transientAttempts) = await RunAsync(new RetryOptions { MaxAttempts = 0, MaxThrottledWait = TimeSpan.FromSeconds(1) }, s_transient);

        Assert.Equal((BatchStatus.Written, 2), (throttled.Status, throttledAttempts.Count));
        Assert.Equal((BatchStatus.Transient, 1), (transient.Status, transientAttempts.Count));
    }
}
