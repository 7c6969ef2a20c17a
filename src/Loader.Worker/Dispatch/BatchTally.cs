using Loader.Abstractions;
using Loader.Worker.Reporting;
using Loader.Worker.Reporting.Partitions;

namespace Loader.Worker.Dispatch;

/// <summary>
/// What one batch's attempts took, counted into the load's <see cref="LoadTimes"/> as they happen and kept for the
/// batch's partition once it ends: time at the service, back-off before retries (the one under way too), throttled
/// answers, rows refused. One per batch, used by one attempt at a time.
/// </summary>
internal sealed class BatchTally(LoadTimes times, TimeProvider timeProvider)
{
    private long _backoffSince;
    private bool? _backingOffThrottled;
    private TimeSpan _inFlight;
    private TimeSpan _backoff;
    private int _throttled;
    private int _refused;

    /// <summary>A request of the batch leaves for the service; returns the timestamp <see cref="Answered"/> takes.</summary>
    public long Sending()
    {
        times.RequestStarted();
        return timeProvider.GetTimestamp();
    }

    /// <summary>The request sent at <paramref name="sent"/> ended: with <paramref name="outcome"/>, or null when it was cut off (a stop).</summary>
    public void Answered(long sent, BatchOutcome? outcome)
    {
        var inFlight = timeProvider.GetElapsedTime(sent);
        times.RequestEnded(inFlight, fault: outcome?.Status == BatchStatus.Transient);
        _inFlight += inFlight;
        _throttled += outcome?.ThrottledResponses ?? 0;
    }

    /// <summary>A row of the batch went to the rejects.</summary>
    public void Refused() => _refused++;

    /// <summary>An attempt ended throttled (<paramref name="throttled"/>) or in a transient fault: the batch backs off before it retries.</summary>
    public void BackoffStarted(bool throttled)
    {
        BackoffEnded(retried: false);
        _backoffSince = timeProvider.GetTimestamp();
        _backingOffThrottled = throttled;
        times.BackoffStarted(throttled);
    }

    /// <summary>The back-off under way, if any, ended: with a retry (<paramref name="retried"/>), or because the batch ended.</summary>
    public void BackoffEnded(bool retried)
    {
        if (_backingOffThrottled is not { } throttled)
        {
            return;
        }

        _backingOffThrottled = null;
        var waited = timeProvider.GetElapsedTime(_backoffSince);
        _backoff += waited;
        times.BackoffEnded(throttled, waited, retried);
    }

    /// <summary>What the batch of <paramref name="rows"/> rows came to, for its partition's figures.</summary>
    public PartitionBatch Of(long rows) => new(rows, _inFlight, _backoff, _throttled, _refused);
}
