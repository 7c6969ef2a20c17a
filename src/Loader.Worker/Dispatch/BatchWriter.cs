using System.Globalization;
using Loader.Abstractions;
using Loader.Worker.Batching;
using Loader.Worker.Dispatch.Concurrency;
using Loader.Worker.Rejects;
using Loader.Worker.Reporting;
using Microsoft.Extensions.Logging;
using Polly;
using Polly.Timeout;

namespace Loader.Worker.Dispatch;

/// <summary>
/// Takes one batch to its end: every row written, rejected with the service's reason, or failed with the last
/// error once the retry budget is spent. A row the service refuses is taken out and the others are sent again,
/// so one bad row never fails its batch.
/// </summary>
public sealed partial class BatchWriter(
    IBackendAdapter adapter,
    ResiliencePipeline<BatchOutcome> resilience,
    IConcurrencyLimiter limiter,
    LoadStatistics statistics,
    RejectSink rejects,
    ILogger<BatchWriter> logger)
{
    public const string StoppedError = "the load was stopped before these rows were written";

    /// <summary>Writes the batch; when <paramref name="abort"/> is cancelled first, its unwritten rows are counted failed.</summary>
    public async Task WriteAsync(ReadyBatch ready, CancellationToken abort)
    {
        var batch = ready.Batch;
        while (batch.Entities.Count > 0)
        {
            BatchOutcome outcome;
            try
            {
                abort.ThrowIfCancellationRequested();
                outcome = await AttemptWithRetriesAsync(batch, abort).ConfigureAwait(false);
            }
            catch (OperationCanceledException) when (abort.IsCancellationRequested)
            {
                outcome = new BatchOutcome { Status = BatchStatus.Failed, Error = StoppedError };
            }

            switch (outcome.Status)
            {
                case BatchStatus.Written:
                    statistics.BatchWritten(batch.Entities.Count);
                    return;
                case BatchStatus.OperationsRejected when outcome.OperationFailures.Count > 0:
                    batch = WithoutRefused(batch, outcome.OperationFailures);
                    break;
                default:
                    Fail(batch, outcome);
                    return;
            }
        }
    }

    private async Task<BatchOutcome> AttemptWithRetriesAsync(EntityBatch batch, CancellationToken cancellationToken)
    {
        try
        {
            return await resilience.ExecuteAsync(
                static async (state, token) => await state.Writer.AttemptAsync(state.Batch, token).ConfigureAwait(false),
                (Writer: this, Batch: batch),
                cancellationToken).ConfigureAwait(false);
        }
        catch (TimeoutRejectedException exception)
        {
            return new BatchOutcome
            {
                Status = BatchStatus.Transient,
                Error = string.Create(CultureInfo.InvariantCulture, $"no answer within {exception.Timeout.TotalSeconds:0.#} s (Loader:Retry:AttemptTimeout), retries spent"),
            };
        }
    }

    private async Task<BatchOutcome> AttemptAsync(EntityBatch batch, CancellationToken cancellationToken)
    {
        using var slot = await limiter.AcquireAsync(cancellationToken).ConfigureAwait(false);
        statistics.BatchStarted();
        try
        {
            var outcome = await adapter.WriteBatchAsync(batch, cancellationToken).ConfigureAwait(false);
            statistics.Attempt(outcome);
            limiter.Observe(outcome);
            return outcome;
        }
        finally
        {
            statistics.BatchFinished();
        }
    }

    private EntityBatch WithoutRefused(EntityBatch batch, IReadOnlyList<OperationFailure> failures)
    {
        var refused = new HashSet<int>();
        foreach (var failure in failures)
        {
            if (failure.Index >= 0 && failure.Index < batch.Entities.Count && refused.Add(failure.Index))
            {
                var entity = batch.Entities[failure.Index];
                rejects.Reject(entity, RefusalReason(failure));
            }
        }

        var remaining = new List<LoadEntity>(batch.Entities.Count - refused.Count);
        for (var i = 0; i < batch.Entities.Count; i++)
        {
            if (!refused.Contains(i))
            {
                remaining.Add(batch.Entities[i]);
            }
        }

        return batch with { Entities = remaining };
    }

    private static string RefusalReason(OperationFailure failure)
    {
        var code = string.IsNullOrEmpty(failure.Code) ? "" : " " + failure.Code;
        return string.Create(CultureInfo.InvariantCulture, $"refused by the service ({failure.StatusCode}{code}): {failure.Message}");
    }

    private void Fail(EntityBatch batch, BatchOutcome outcome)
    {
        var error = outcome.Error ?? outcome.Status.ToString();
        statistics.RowsFailed(batch.Entities.Count, error);
        if (ReferenceEquals(error, StoppedError))
        {
            return; // the stop itself is logged once, not per batch
        }

        LogBatchFailed(batch.Entities.Count, batch.PartitionKey, batch.Entities[0].Origin.Line, error);
    }

    [LoggerMessage(Level = LogLevel.Error, Message = "{Rows} rows of partition '{PartitionKey}' (from line {Line}) failed: {Error}")]
    private partial void LogBatchFailed(int rows, string partitionKey, long line, string error);
}
