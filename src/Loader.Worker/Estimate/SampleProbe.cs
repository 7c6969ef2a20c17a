using Loader.Abstractions;

namespace Loader.Worker.Estimate;

/// <summary>
/// The target as the sample's steps reach it: every call goes through to the real adapter, and each write attempt is
/// recorded with when it left and when its answer came, so the ramp can tell when the service first pushed back and
/// what it let through from then on. An attempt cut off by the end of a step (no answer) is not recorded.
/// </summary>
internal sealed class SampleProbe(IBackendAdapter target, TimeProvider timeProvider) : IBackendAdapter
{
    private readonly long _origin = timeProvider.GetTimestamp();
    private readonly Lock _lock = new();
    private readonly List<SampleAttempt> _attempts = [];
    private int _step;
    private Action? _firstThrottle;

    public string Name => target.Name;

    public BackendLimits Limits => target.Limits;

    /// <summary>Seconds since the probe was made: the clock the attempts are recorded on.</summary>
    public double Now => timeProvider.GetElapsedTime(_origin).TotalSeconds;

    /// <summary>Attempts from here on belong to step <paramref name="step"/>; <paramref name="firstThrottle"/> is called once, at its first throttled answer.</summary>
    public void BeginStep(int step, Action? firstThrottle)
    {
        lock (_lock)
        {
            _step = step;
            _firstThrottle = firstThrottle;
        }
    }

    /// <summary>The attempts recorded so far, in the order their answers came.</summary>
    public IReadOnlyList<SampleAttempt> Attempts
    {
        get
        {
            lock (_lock)
            {
                return [.. _attempts];
            }
        }
    }

    public Task PrepareAsync(CancellationToken cancellationToken) => target.PrepareAsync(cancellationToken);

    public string? CheckPropertyName(string name) => target.CheckPropertyName(name);

    public EntityInspection Inspect(string partitionKey, string rowKey, ReadOnlySpan<EntityProperty> properties) =>
        target.Inspect(partitionKey, rowKey, properties);

    public async Task<BatchOutcome> WriteBatchAsync(EntityBatch batch, CancellationToken cancellationToken)
    {
        var sent = Now;
        var outcome = await target.WriteBatchAsync(batch, cancellationToken).ConfigureAwait(false);
        var answered = Now;
        var applied = outcome.Status == BatchStatus.Written ? batch.Entities.Count : outcome.AppliedOperations.Count;
        Action? firstThrottle = null;
        lock (_lock)
        {
            _attempts.Add(new SampleAttempt(_step, sent, answered, batch.Entities.Count, applied, outcome.Status, outcome.RequestCharge,
                outcome.Latency.TotalMilliseconds, outcome.ThrottledResponses, outcome.RequestBytes));
            if (outcome.Status == BatchStatus.Throttled)
            {
                (firstThrottle, _firstThrottle) = (_firstThrottle, null);
            }
        }

        firstThrottle?.Invoke();
        return outcome;
    }

    /// <summary>The real adapter belongs to the host, which disposes it.</summary>
    public ValueTask DisposeAsync() => ValueTask.CompletedTask;
}

/// <summary>One write attempt of the sample.</summary>
/// <param name="Step">The ramp step it belongs to, from 1.</param>
/// <param name="SentAt">When it left, in seconds on the probe's clock.</param>
/// <param name="AnsweredAt">When its answer came, on the same clock.</param>
/// <param name="Rows">Rows it carried.</param>
/// <param name="Applied">Rows the service applied: all of them when written, some when a non-atomic write was partly throttled.</param>
/// <param name="Status">How it ended.</param>
/// <param name="Charge">Request units charged, when the service says.</param>
/// <param name="LatencyMs">From sending to the answer, as the adapter measured it.</param>
/// <param name="Throttles">Throttled answers in it.</param>
/// <param name="RequestBytes">Bytes of its request body, when the adapter measured them.</param>
internal readonly record struct SampleAttempt(
    int Step,
    double SentAt,
    double AnsweredAt,
    int Rows,
    int Applied,
    BatchStatus Status,
    double? Charge,
    double LatencyMs,
    int Throttles,
    long? RequestBytes);
