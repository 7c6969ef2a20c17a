namespace Loader.Worker.Dispatch.Concurrency;

/// <summary>
/// Batches in flight, learned from what the service answers: a rule (<see cref="VegasRule"/> unless another is given)
/// decides the limit from each answer, and a <see cref="SlotGate"/> holds callers to it. Every change of the limit goes
/// to the load's <see cref="ConcurrencyTimeline"/>.
/// </summary>
internal sealed class AdaptiveConcurrencyLimiter : IConcurrencyLimiter
{
    // Orders the rule's decisions and their application: the gate never opens to an older decision than the rule's last.
    private readonly Lock _lock = new();
    private readonly IConcurrencyRule _rule;
    private readonly SlotGate _gate;
    private readonly ConcurrencyTimeline _timeline;
    private ConcurrencyDecision _decision;

    public AdaptiveConcurrencyLimiter(int initial, int min, int max, ConcurrencyTimeline timeline, TimeProvider? timeProvider = null)
        : this(new VegasRule(initial, min, max, timeProvider ?? TimeProvider.System), timeline)
    {
    }

    public AdaptiveConcurrencyLimiter(IConcurrencyRule rule, ConcurrencyTimeline timeline)
    {
        _rule = rule;
        _timeline = timeline;
        _decision = rule.Decision;
        _gate = new SlotGate(_decision.Slots);
        timeline.Record(_decision.Limit);
    }

    public int Limit
    {
        get
        {
            lock (_lock)
            {
                return _decision.Limit;
            }
        }
    }

    /// <summary>Whether one request is going alone to measure the service.</summary>
    internal bool Probing
    {
        get
        {
            lock (_lock)
            {
                return _decision.Probing;
            }
        }
    }

    public ValueTask<ConcurrencyLease> AcquireAsync(CancellationToken cancellationToken) => _gate.AcquireAsync(cancellationToken);

    public void Observe(in AttemptObservation attempt)
    {
        lock (_lock)
        {
            var decision = _rule.Observe(attempt);
            if (decision.Limit != _decision.Limit)
            {
                _timeline.Record(decision.Limit);
            }

            if (decision.Slots != _decision.Slots)
            {
                _gate.Open(decision.Slots);
            }

            _decision = decision;
        }
    }
}
