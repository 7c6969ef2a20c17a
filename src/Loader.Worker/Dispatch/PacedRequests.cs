using Loader.Abstractions;
using Loader.Worker.Backends;
using Loader.Worker.Dispatch.Concurrency;
using Loader.Worker.Dispatch.Resilience;
using Loader.Worker.Reporting;
using Polly.Timeout;

namespace Loader.Worker.Dispatch;

/// <summary>
/// How one request to the service goes, whatever it asks (a batch written, a partition read back): within a concurrency
/// slot, paced, within its time limit; then counted, and what it cost and how it ended told to the pace and the limit.
/// The pace is taken inside the slot, right before sending, so a request that waited for its slot goes out at the pace
/// of that moment, not of when it started waiting.
/// </summary>
internal sealed class PacedRequests(DispatchControls controls, BatchResilience resilience, LoadStatistics statistics, TimeProvider timeProvider)
{
    /// <summary>Sends one request for <paramref name="rows"/> rows of <paramref name="partitionKey"/>.</summary>
    /// <param name="partitionKey">The partition it is for: a throttle there tells a hot partition from the whole service.</param>
    /// <param name="rows">The rows it is paced for.</param>
    /// <param name="request">The request, one attempt.</param>
    /// <param name="outcomeOf">How it went, from its answer.</param>
    /// <param name="unanswered">Its answer when none came.</param>
    /// <param name="sending">Called right before it leaves, once paced.</param>
    /// <param name="tally">The batch's own account of its time in flight, when the request writes a batch.</param>
    /// <param name="cancellationToken">Cancels the wait and the request.</param>
    public async Task<T> SendAsync<T>(
        string partitionKey,
        int rows,
        Func<CancellationToken, Task<T>> request,
        Func<T, BatchOutcome> outcomeOf,
        Func<BatchOutcome, T> unanswered,
        Action? sending,
        BatchTally? tally,
        CancellationToken cancellationToken)
    {
        double taken;
        T answer;
        BatchOutcome outcome;
        ConcurrencyLease slot;
        var queued = timeProvider.GetTimestamp();
        using (slot = await controls.Limiter.AcquireAsync(cancellationToken).ConfigureAwait(false))
        {
            statistics.Times.SlotWaited(timeProvider.GetElapsedTime(queued));
            taken = await PacedAsync(rows, cancellationToken).ConfigureAwait(false);
            sending?.Invoke();
            statistics.BatchStarted();
            var sent = tally?.Sending() ?? 0;
            BatchOutcome? answered = null;
            try
            {
                answer = await WithinTimeLimitAsync(request, unanswered, cancellationToken).ConfigureAwait(false);
                answered = outcome = outcomeOf(answer);
            }
            finally
            {
                statistics.BatchFinished();
                tally?.Answered(sent, answered);
            }
        }

        statistics.Attempt(outcome);
        var serviceWide = outcome.Status == BatchStatus.Throttled && controls.Signal.IsServiceWide(partitionKey);
        controls.Limiter.Observe(new AttemptObservation(outcome, rows, slot.InFlightAtStart, serviceWide));
        controls.Pacer.Observe(outcome, rows, taken, serviceWide);
        return answer;
    }

    /// <summary>Waits for the pace; a wait that does not end at once is counted, so the report can tell how long the pace held requests.</summary>
    private async ValueTask<double> PacedAsync(int rows, CancellationToken cancellationToken)
    {
        var pace = controls.Pacer.WaitAsync(rows, cancellationToken);
        if (pace.IsCompleted)
        {
            return await pace.ConfigureAwait(false);
        }

        var waiting = timeProvider.GetTimestamp();
        statistics.Times.PacingStarted();
        try
        {
            return await pace.ConfigureAwait(false);
        }
        finally
        {
            statistics.Times.PacingEnded(timeProvider.GetElapsedTime(waiting));
        }
    }

    /// <summary>
    /// One request within its time limit. However it ends without an answer from the service — the limit, or a timeout,
    /// reset or failed connection inside the client — it is a transient outcome to retry, never an exception: those are
    /// left for defects.
    /// </summary>
    public async Task<T> WithinTimeLimitAsync<T>(Func<CancellationToken, Task<T>> request, Func<BatchOutcome, T> unanswered, CancellationToken cancellationToken)
    {
        var started = timeProvider.GetTimestamp();
        try
        {
            return await resilience.RequestTimeout.ExecuteAsync(
                static async (send, token) => await send(token).ConfigureAwait(false),
                request,
                cancellationToken).ConfigureAwait(false);
        }
        catch (TimeoutRejectedException exception)
        {
            return unanswered(NoAnswer.WithinTimeLimit(exception.Timeout));
        }
        catch (Exception exception) when (NoAnswer.Is(exception, cancellationToken))
        {
            return unanswered(NoAnswer.Outcome(exception, timeProvider.GetElapsedTime(started)));
        }
    }
}
