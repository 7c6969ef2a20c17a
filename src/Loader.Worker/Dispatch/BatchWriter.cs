using System.Globalization;
using Loader.Abstractions;
using Loader.Worker.Batching;
using Loader.Worker.Checkpoints;
using Loader.Worker.Dispatch.Resilience;
using Loader.Worker.Rejects;
using Loader.Worker.Reporting;
using Microsoft.Extensions.Logging;

namespace Loader.Worker.Dispatch;

/// <summary>
/// Takes one batch to its end: every row written, rejected with the service's reason, or failed with the last
/// error once the retry budget is spent. A row the service refuses is taken out and the others are sent again,
/// so one bad row never fails its batch; rows a non-atomic write already landed are never sent twice. Under Delete, a
/// row refused as not found (404) is taken out the same way and counted already absent.
/// </summary>
/// <remarks>
/// A batch settled in full settles its records in the <see cref="RecordWatermark"/>; one with failed rows keeps them
/// pending, so a restart from the checkpoint writes them again. Under Insert, a conflict may be the load's own write:
/// after a resume (the earlier run wrote rows after its last checkpoint), or after a request of the batch that got no
/// answer (it may have landed). Then the batch's rows are read back (<see cref="IStoredEntityComparison"/>): a conflict
/// on a row the store holds exactly as the load writes it is counted already written, one on anything else is rejected
/// as before, and the batch's other rows found stored as they are leave the batch. An adapter that cannot read back
/// falls back to the checkpoint: a resumed conflict on a row up to the earlier run's highest sent record is counted already written.
/// </remarks>
internal sealed partial class BatchWriter(
    IBackendAdapter adapter,
    BatchResilience resilience,
    DispatchControls controls,
    LoadStatistics statistics,
    RejectSink rejects,
    RecordWatermark watermark,
    ResumePoint? resume,
    TimeProvider timeProvider,
    ILogger<BatchWriter> logger)
{
    private const string StoppedError = "the load was stopped before these rows were written";

    private readonly IStoredEntityComparison? _comparison = adapter as IStoredEntityComparison;

    private readonly PacedRequests _requests = new(controls, resilience, statistics, timeProvider);

    /// <summary>Writes the batch; when <paramref name="abort"/> is cancelled first, its unwritten rows are counted failed.</summary>
    public async Task WriteAsync(ReadyBatch ready, CancellationToken abort)
    {
        var work = new BatchWork(ready);
        var tally = new BatchTally(statistics.Times, timeProvider);
        try
        {
            if (await WriteAllAsync(work, tally, abort).ConfigureAwait(false))
            {
                watermark.Settled(ready.RowRecords.Span, ready.SupersededRecords);
            }
        }
        finally
        {
            tally.BackoffEnded(retried: false);
            statistics.Partitions.Batch(ready.Batch.PartitionKey, tally.Of(ready.Batch.Entities.Count + (ready.Superseded?.Count ?? 0)));
        }
    }

    /// <summary>Sends until every row is settled (true) or the rest failed or the load stopped (false).</summary>
    private async Task<bool> WriteAllAsync(BatchWork work, BatchTally tally, CancellationToken abort)
    {
        while (work.Remaining > 0 || work.Conflicts.Count > 0)
        {
            BatchOutcome outcome;
            try
            {
                abort.ThrowIfCancellationRequested();
                outcome = work.Conflicts.Count > 0
                    ? await ResolveConflictsAsync(work, tally, abort).ConfigureAwait(false)
                    : await AttemptWithRetriesAsync(work, tally, abort).ConfigureAwait(false);
            }
            catch (OperationCanceledException) when (abort.IsCancellationRequested)
            {
                // Counted failed, but not logged: the stop itself is logged once, not per batch.
                statistics.RowsFailed(work.RemainingRows, StoppedError);
                return false;
            }

            if (outcome.Status is BatchStatus.Written or BatchStatus.OperationsRejected)
            {
                continue; // settled, or refused rows taken out and the rest goes again at once
            }

            Fail(work, outcome);
            return false;
        }

        return true;
    }

    private Task<BatchOutcome> AttemptWithRetriesAsync(BatchWork work, BatchTally tally, CancellationToken cancellationToken) =>
        resilience.Retry.ExecuteAsync(
            static async (state, token) => await state.Writer.AttemptAsync(state.Work, state.Tally, token).ConfigureAwait(false),
            (Writer: this, Work: work, Tally: tally),
            cancellationToken).AsTask();

    /// <summary>One request, paced within its concurrency slot (<see cref="PacedRequests"/>); settles what the service settled.</summary>
    private async Task<BatchOutcome> AttemptAsync(BatchWork work, BatchTally tally, CancellationToken cancellationToken)
    {
        tally.BackoffEnded(retried: true);

        // The highest record is recorded before the request leaves, not after its answer: a request cut off by a stop
        // (or any request left without an answer) may still have been applied, and a resumed Insert load must then take
        // a conflict on these rows for its own earlier write, not reject them.
        var batch = work.Current;
        var outcome = await _requests.SendAsync(
            batch.PartitionKey,
            work.Remaining,
            token => adapter.WriteBatchAsync(batch, token),
            static answer => answer,
            static unanswered => unanswered,
            () => watermark.Sent(work.HighestRecord),
            tally,
            cancellationToken).ConfigureAwait(false);

        // A transient failure says nothing of whether the rows were applied: a conflict on them later may be this write.
        work.MayHaveLanded |= outcome.Status == BatchStatus.Transient;

        var written = outcome.Status == BatchStatus.Written;
        var settled = work.Settle(outcome);
        if (written)
        {
            statistics.BatchWritten(settled.Applied);
        }
        else if (settled.Applied > 0)
        {
            statistics.RowsWritten(settled.Applied);
        }

        if (settled.Superseded > 0)
        {
            statistics.RowsSuperseded(settled.Superseded);
        }

        foreach (var (entity, failure) in settled.Refused)
        {
            if (failure.StatusCode == 404 && work.Current.Mode == WriteMode.Delete)
            {
                statistics.RowsAlreadyAbsent(1); // nothing stored under its keys: what a delete leaves, not a reject
                continue;
            }

            var ownWrite = failure.StatusCode == 409 && work.Current.Mode == WriteMode.Insert && (resume is { Resumed: true } || work.MayHaveLanded);
            if (ownWrite && _comparison is not null)
            {
                work.Conflicts.Add((entity, failure)); // compared with the store before it is counted
            }
            else if (ownWrite && resume is { Resumed: true } && entity.Origin.Record <= resume.HighestSentBefore)
            {
                statistics.RowsAlreadyWritten(1); // the earlier run sent it before it stopped
            }
            else
            {
                rejects.Reject(entity, RefusalReason(failure));
                tally.Refused();
            }
        }

        // Nothing left to send: stop retrying, whatever the status of the last answer.
        var result = work.Remaining == 0 && !written ? outcome with { Status = BatchStatus.Written } : outcome;
        if (result.Status is BatchStatus.Throttled or BatchStatus.Transient)
        {
            tally.BackoffStarted(throttled: result.Status == BatchStatus.Throttled);
        }

        return result;
    }

    /// <summary>
    /// Reads back the rows refused as conflicts, with the batch's rows still to send (an earlier write of the load may
    /// hold them too), in one request retried as a write is. A conflict on a row stored as the load writes it is counted
    /// already written, one on anything else is rejected with what differs, and one on a key the store no longer holds is
    /// sent again; the rows still to send that are stored as they are leave the batch. Should the read fail, the
    /// conflicts are rejected as the service refused them.
    /// </summary>
    private async Task<BatchOutcome> ResolveConflictsAsync(BatchWork work, BatchTally tally, CancellationToken cancellationToken)
    {
        var conflicts = work.Conflicts.ToList();
        var entities = conflicts.Select(conflict => conflict.Entity).Concat(work.Current.Entities).ToList();
        var batch = work.Current with { Entities = entities };
        StoredComparison? found = null;
        var outcome = await resilience.Retry.ExecuteAsync(
            async token =>
            {
                found = await CompareAsync(batch, token).ConfigureAwait(false);
                return found.Outcome;
            },
            cancellationToken).ConfigureAwait(false);

        work.Conflicts.Clear();
        if (outcome.Status != BatchStatus.Written || found is not { } answered || answered.Entities.Count != entities.Count)
        {
            var unread = $" (it could not be read back to compare: {outcome.Error ?? outcome.Status.ToString()})";
            foreach (var (entity, failure) in conflicts)
            {
                rejects.Reject(entity, RefusalReason(failure) + unread);
                tally.Refused();
            }

            return outcome with { Status = BatchStatus.Written };
        }

        for (var i = 0; i < conflicts.Count; i++)
        {
            var (entity, failure) = conflicts[i];
            switch (answered.Entities[i].Match)
            {
                case StoredMatch.Equal:
                    statistics.RowsAlreadyWritten(1);
                    break;
                case StoredMatch.Missing:
                    work.SendAgain(entity);
                    break;
                default:
                    rejects.Reject(entity, $"{RefusalReason(failure)}; the stored entity is not this row: {answered.Entities[i].Difference}");
                    tally.Refused();
                    break;
            }
        }

        var stored = new HashSet<LoadEntity>(ReferenceEqualityComparer.Instance);
        for (var i = conflicts.Count; i < entities.Count; i++)
        {
            if (answered.Entities[i].Match == StoredMatch.Equal)
            {
                stored.Add(entities[i]);
            }
        }

        if (stored.Count > 0)
        {
            work.Stored(stored);
            statistics.RowsAlreadyWritten(stored.Count);
        }

        return outcome;
    }

    /// <summary>One read-back request, within a concurrency slot and the request's time limit, counted as a request.</summary>
    private async Task<StoredComparison> CompareAsync(EntityBatch batch, CancellationToken cancellationToken)
    {
        StoredComparison comparison;
        using (await controls.Limiter.AcquireAsync(cancellationToken).ConfigureAwait(false))
        {
            comparison = await _requests.WithinTimeLimitAsync(
                token => _comparison!.CompareStoredAsync(batch, token),
                unanswered => new StoredComparison(unanswered, []),
                cancellationToken).ConfigureAwait(false);
        }

        statistics.Attempt(comparison.Outcome);
        return comparison;
    }

    private static string RefusalReason(OperationFailure failure)
    {
        var code = string.IsNullOrEmpty(failure.Code) ? "" : " " + failure.Code;
        return string.Create(CultureInfo.InvariantCulture, $"refused by the service ({failure.StatusCode}{code}): {failure.Message}");
    }

    private void Fail(BatchWork work, BatchOutcome outcome)
    {
        var batch = work.Current;
        var error = outcome.Error ?? outcome.Status.ToString();
        statistics.RowsFailed(work.RemainingRows, error);
        LogBatchFailed(batch.Entities.Count, PartitionKeyLevels.Display(batch.PartitionKey), rejects.Describe(batch.Entities[0].Origin), error);
    }

    [LoggerMessage(Level = LogLevel.Error, Message = "{Rows} rows of partition '{PartitionKey}' (from {Place}) failed: {Error}")]
    private partial void LogBatchFailed(int rows, string partitionKey, string place, string error);
}
