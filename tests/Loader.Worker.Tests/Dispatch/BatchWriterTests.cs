using System.Net.Sockets;
using System.Security.Authentication;
using Azure;
using Loader.Abstractions;
using Loader.Worker.Batching;
using Loader.Worker.Checkpoints;
using Loader.Worker.Configuration;
using Loader.Worker.Dispatch;
using Loader.Worker.Dispatch.Resilience;
using Loader.Worker.Rejects;
using Loader.Worker.Reporting;
using Loader.Worker.Tests.Infrastructure;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Loader.Worker.Security;

namespace Loader.Worker.Tests.Dispatch;

/// <summary>One batch taken to its end by <see cref="BatchWriter"/>, against a scripted adapter (a test double).</summary>
public sealed class BatchWriterTests : IDisposable
{
    private readonly TestMeterFactory _meters = new();
    private readonly LoadStatistics _statistics;
    private readonly RejectSink _rejects;
    private readonly RecordWatermark _watermark = new();
    private readonly DispatchControls _controls;
    private readonly RetryOptions _retry = new() { MaxAttempts = 3, MaxThrottledWait = TimeSpan.Zero, BaseDelay = TimeSpan.FromMilliseconds(1), MaxDelay = TimeSpan.FromMilliseconds(2) };

    public BatchWriterTests()
    {
        _statistics = new LoadStatistics(new LoaderMetrics(_meters), TimeProvider.System);
        _rejects = new RejectSink(null, 1000, _statistics, NullLogger<RejectSink>.Instance, Redaction.Rule);
        _controls = new DispatchControls(new LoaderOptions(), TimeProvider.System);
    }

    public void Dispose()
    {
        _controls.Dispose();
        _rejects.Dispose();
        _meters.Dispose();
    }

    private BatchWriter Writer(IBackendAdapter adapter, ILogger<BatchWriter>? logger = null) => new(
        adapter, new BatchResilience(_retry, _statistics, TimeProvider.System), _controls, _statistics, _rejects, _watermark, null, TimeProvider.System, logger ?? NullLogger<BatchWriter>.Instance);

    private static ReadyBatch Batch(int rows)
    {
        var entities = Enumerable.Range(1, rows)
            .Select(i => new LoadEntity("p", $"r{i}", [EntityProperty.FromInt32("n", i)], new RowOrigin(i, i + 1), 100))
            .ToArray();
        return new ReadyBatch(new EntityBatch("p", entities, WriteMode.Upsert), 1, 1);
    }

    /// <summary>The shapes clients give "no answer": Azure.Core's network timeout, a refused or reset connection, a name that does not resolve, a TLS failure, a response cut short.</summary>
    public static TheoryData<string> NoAnswerShapes => ["network timeout", "status 0", "refused", "dns", "tls", "truncated", "timeout"];

    private static Exception NoAnswerOfShape(string shape) => shape switch
    {
        "network timeout" => new TaskCanceledException("The operation was cancelled because it exceeded the configured timeout of 0:01:00. Network timeout can be adjusted in ClientOptions.Retry.NetworkTimeout."),
        "status 0" => new RequestFailedException(0, "Connection reset by peer", new IOException("Connection reset by peer")),
        "refused" => new HttpRequestException("Connection refused (127.0.0.1:10002)", new SocketException((int)SocketError.ConnectionRefused)),
        "dns" => new HttpRequestException("Name or service not known (nowhere.invalid:443)", new SocketException((int)SocketError.HostNotFound)),
        "tls" => new HttpRequestException("The SSL connection could not be established", new AuthenticationException("remote certificate is invalid")),
        "truncated" => new HttpIOException(HttpRequestError.ResponseEnded, "The response ended prematurely."),
        _ => new TimeoutException("The operation has timed out."),
    };

    [Fact]
    public async Task A_batch_cut_off_by_a_stop_counts_as_sent_because_the_service_may_have_applied_it()
    {
        var reached = new TaskCompletionSource();
        var adapter = new ScriptedAdapter(async (_, token) =>
        {
            reached.SetResult();
            await Task.Delay(Timeout.Infinite, token);
            throw new InvalidOperationException("unreachable");
        });
        var batch = Batch(5);
        _watermark.Pending([.. batch.RowRecords.Span, .. batch.SupersededRecords]);
        _watermark.Batched(5, 6);
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(TestContext.Current.CancellationToken);

        var writing = Writer(adapter).WriteAsync(batch, stop.Token);
        await reached.Task;
        await stop.CancelAsync();
        await writing;

        Assert.Equal(5, _watermark.HighestSent);
        Assert.Equal(5, _statistics.Snapshot().RowsFailed);
    }

    [Theory]
    [MemberData(nameof(NoAnswerShapes))]
    public async Task A_request_that_ends_without_an_answer_is_retried_and_its_rows_land(string shape)
    {
        var adapter = new ScriptedAdapter(ScriptedAdapter.Throw(NoAnswerOfShape(shape)), ScriptedAdapter.Written);
        var batch = Batch(5);
        _watermark.Pending([.. batch.RowRecords.Span, .. batch.SupersededRecords]);
        _watermark.Batched(5, 6);

        await Writer(adapter).WriteAsync(batch, TestContext.Current.CancellationToken);

        var counts = _statistics.Snapshot();
        Assert.Equal((5, 0, 1, 2), (counts.RowsWritten, counts.RowsFailed, counts.Retries, counts.Requests));
        Assert.Empty(_statistics.Errors());
        Assert.Equal(6, _watermark.Current); // the batch settled: a restart would begin after it
    }

    [Fact]
    public async Task When_no_answer_ever_comes_the_rows_fail_after_the_retries_with_what_the_network_said()
    {
        var adapter = new ScriptedAdapter(ScriptedAdapter.Throw(NoAnswerOfShape("refused")));
        var batch = Batch(4);
        _watermark.Pending([.. batch.RowRecords.Span, .. batch.SupersededRecords]);
        _watermark.Batched(4, 5);

        await Writer(adapter).WriteAsync(batch, TestContext.Current.CancellationToken);

        var counts = _statistics.Snapshot();
        Assert.Equal((0, 4, 3), (counts.RowsWritten, counts.RowsFailed, counts.Retries));
        Assert.Equal(1 + _retry.MaxAttempts, adapter.Sent.Count);
        var error = Assert.Single(_statistics.Errors());
        Assert.StartsWith("no answer from the service: Connection refused", error.Error, StringComparison.Ordinal);
        Assert.Equal(1, _watermark.Current); // failed rows keep the watermark, so a restart writes them again
    }

    [Fact]
    public async Task A_defect_in_the_adapter_is_not_taken_for_the_network_and_comes_out_as_an_exception()
    {
        var adapter = new ScriptedAdapter(ScriptedAdapter.Throw(new InvalidOperationException("a bug")));

        await Assert.ThrowsAsync<InvalidOperationException>(() => Writer(adapter).WriteAsync(Batch(2), TestContext.Current.CancellationToken));

        Assert.Single(adapter.Sent);
    }

    private ReadyBatch PendingBatch(int rows)
    {
        var batch = Batch(rows);
        _watermark.Pending([.. batch.RowRecords.Span, .. batch.SupersededRecords]);
        _watermark.Batched(rows, rows + 1);
        return batch;
    }

    private static BatchOutcome Throttled { get; } = new() { Status = BatchStatus.Throttled, StatusCode = 429, RetryAfter = TimeSpan.FromMilliseconds(1), ThrottledResponses = 1 };

    [Fact]
    public async Task A_written_batch_settles_its_rows_in_one_request_and_moves_the_watermark_past_them()
    {
        var adapter = new ScriptedAdapter(ScriptedAdapter.Written);

        await Writer(adapter).WriteAsync(PendingBatch(5), TestContext.Current.CancellationToken);

        var counts = _statistics.Snapshot();
        Assert.Equal((5, 0, 0, 1, 1), (counts.RowsWritten, counts.RowsFailed, counts.RowsRejected, counts.Requests, counts.Batches));
        Assert.Equal(6, _watermark.Current);
        Assert.Equal(5, _watermark.HighestSent);
    }

    [Fact]
    public async Task A_row_the_service_refuses_is_rejected_with_its_reason_and_the_other_rows_go_again_without_it()
    {
        var refused = new BatchOutcome
        {
            Status = BatchStatus.OperationsRejected,
            StatusCode = 400,
            OperationFailures = [new OperationFailure(2, 400, "PropertyValueTooLarge", "The property value exceeds the maximum allowed size")],
        };
        var adapter = new ScriptedAdapter(ScriptedAdapter.Answer(_ => refused), ScriptedAdapter.Written);

        await Writer(adapter).WriteAsync(PendingBatch(5), TestContext.Current.CancellationToken);

        var counts = _statistics.Snapshot();
        Assert.Equal((4, 1, 0, 0), (counts.RowsWritten, counts.RowsRejected, counts.RowsFailed, counts.Retries));
        Assert.Equal(["r1", "r2", "r4", "r5"], adapter.Sent[1].Entities.Select(entity => entity.RowKey));
        Assert.Equal(6, _watermark.Current); // the refused row is settled too: it is in the rejects, not lost
    }

    [Fact]
    public async Task A_throttled_batch_is_retried_and_the_throttle_and_the_retry_are_counted()
    {
        var adapter = new ScriptedAdapter(ScriptedAdapter.Answer(_ => Throttled), ScriptedAdapter.Answer(_ => Throttled), ScriptedAdapter.Written);

        await Writer(adapter).WriteAsync(PendingBatch(5), TestContext.Current.CancellationToken);

        var counts = _statistics.Snapshot();
        Assert.Equal((5, 0, 2, 2, 3), (counts.RowsWritten, counts.RowsFailed, counts.Throttled, counts.Retries, counts.Requests));
        Assert.Equal(3, adapter.Sent.Count);
        Assert.All(adapter.Sent, sent => Assert.Equal(5, sent.Entities.Count));
    }

    [Fact]
    public async Task A_batch_still_throttled_after_the_retry_budget_fails_its_rows_and_holds_the_watermark()
    {
        var adapter = new ScriptedAdapter(ScriptedAdapter.Answer(_ => Throttled));

        await Writer(adapter).WriteAsync(PendingBatch(3), TestContext.Current.CancellationToken);

        var counts = _statistics.Snapshot();
        Assert.Equal((0, 3, _retry.MaxAttempts), (counts.RowsWritten, counts.RowsFailed, counts.Retries));
        Assert.Equal(1 + _retry.MaxAttempts, adapter.Sent.Count);
        Assert.Single(_statistics.Errors());
        Assert.Equal(1, _watermark.Current); // a restart writes these rows again
    }

    [Fact]
    public async Task After_an_abort_a_batch_is_not_sent_and_its_rows_count_failed_for_the_stop_without_a_log_line_per_batch()
    {
        var adapter = new ScriptedAdapter(ScriptedAdapter.Written);
        using var abort = new CancellationTokenSource();
        await abort.CancelAsync();
        var logs = new CapturingLoggerProvider();
        using var loggers = LoggerFactory.Create(logging => logging.AddProvider(logs));

        await Writer(adapter, loggers.CreateLogger<BatchWriter>()).WriteAsync(PendingBatch(4), abort.Token);

        Assert.Empty(adapter.Sent);
        var counts = _statistics.Snapshot();
        Assert.Equal((0, 4, 0), (counts.RowsWritten, counts.RowsFailed, counts.Requests));
        Assert.Equal(0, _watermark.HighestSent); // never sent: a resumed Insert load treats a conflict on these rows as a reject
        Assert.Equal([new ErrorCount("the load was stopped before these rows were written", 4)], _statistics.Errors());
        Assert.Empty(logs.AllText);
    }
}
