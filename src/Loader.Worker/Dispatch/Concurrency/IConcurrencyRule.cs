namespace Loader.Worker.Dispatch.Concurrency;

/// <summary>
/// Decides how many batches may be in flight from what the service answers; <see cref="AdaptiveConcurrencyLimiter"/>
/// holds the slots and applies each decision. Not thread-safe: the limiter calls it under its lock.
/// </summary>
internal interface IConcurrencyRule
{
    /// <summary>The decision in force: the initial one until an answer changes it.</summary>
    ConcurrencyDecision Decision { get; }

    /// <summary>Takes in how an attempt ended; returns the decision in force after it.</summary>
    ConcurrencyDecision Observe(in AttemptObservation attempt);
}

/// <summary>What a concurrency rule decided.</summary>
/// <param name="Limit">Batches allowed in flight: the load's concurrency limit, as reported.</param>
/// <param name="Probing">One request goes alone, to measure the service without a queue of this load's own: one slot is open, whatever the limit.</param>
internal readonly record struct ConcurrencyDecision(int Limit, bool Probing)
{
    /// <summary>Slots open now.</summary>
    public int Slots => Probing ? 1 : Limit;
}
