namespace Loader.Worker.Reporting;

/// <summary>
/// Where a load's time went, counted as it goes: how long the read and batch threads worked and waited, how long
/// batches waited for a slot and for the pace, were at the service and backed off, and the process's CPU. What the
/// report's time breakdown shows and what the verdict is chosen from. Everything is counted per chunk of rows, per
/// batch or per attempt, never per row. Thread-safe.
/// </summary>
internal sealed class LoadTimes(TimeProvider timeProvider)
{
    private readonly BusyClock _service = new(timeProvider);
    private readonly BusyClock _throttledBackoff = new(timeProvider);
    private readonly BusyClock _faultBackoff = new(timeProvider);
    private readonly BusyClock _pacing = new(timeProvider);
    // Until the load starts (a load refused at start never does), CPU counts from here, as the elapsed time does.
    private long _cpuAtStartTicks = Environment.CpuUsage.TotalTime.Ticks;
    private long _readerTicks;
    private long _readerBlockedTicks;
    private long _batcherTicks;
    private long _batcherWaitingForRowsTicks;
    private long _batcherWaitingForDispatcherTicks;
    private long _inFlightTicks;
    private long _faultAttemptTicks;
    private long _throttledBackoffTicks;
    private long _faultBackoffTicks;
    private long _pacedTicks;
    private long _slotWaitTicks;
    private long _retriesAfterThrottling;
    private long _retriesAfterFaults;

    /// <summary>The clock the stages time themselves with.</summary>
    public TimeProvider Clock => timeProvider;

    /// <summary>Marks the start of the load proper: the CPU the process used before it (start-up, opening the input) is left out.</summary>
    public void Start() => Interlocked.Exchange(ref _cpuAtStartTicks, Environment.CpuUsage.TotalTime.Ticks);

    /// <summary>The read stage ended: it ran for <paramref name="total"/>, of which it waited <paramref name="blocked"/> for the batch stage to take its rows.</summary>
    public void ReaderEnded(TimeSpan total, TimeSpan blocked)
    {
        Interlocked.Add(ref _readerTicks, total.Ticks);
        Interlocked.Add(ref _readerBlockedTicks, blocked.Ticks);
    }

    /// <summary>The batch stage ended: it ran for <paramref name="total"/>, waited <paramref name="waitingForRows"/> for rows and <paramref name="waitingForDispatcher"/> for the dispatcher to take batches.</summary>
    public void BatcherEnded(TimeSpan total, TimeSpan waitingForRows, TimeSpan waitingForDispatcher)
    {
        Interlocked.Add(ref _batcherTicks, total.Ticks);
        Interlocked.Add(ref _batcherWaitingForRowsTicks, waitingForRows.Ticks);
        Interlocked.Add(ref _batcherWaitingForDispatcherTicks, waitingForDispatcher.Ticks);
    }

    /// <summary>A batch waited this long for a concurrency slot.</summary>
    public void SlotWaited(TimeSpan waited) => Interlocked.Add(ref _slotWaitTicks, waited.Ticks);

    /// <summary>A batch begins to wait for the pace (<c>Loader:MaxRequestUnitsPerSecond</c>, <c>Loader:MaxRowsPerSecond</c>, or the pace learned from 429s).</summary>
    public void PacingStarted() => _pacing.Enter();

    /// <summary>A batch waited this long for the pace.</summary>
    public void PacingEnded(TimeSpan waited)
    {
        _pacing.Leave();
        Interlocked.Add(ref _pacedTicks, waited.Ticks);
    }

    /// <summary>A request leaves for the service.</summary>
    public void RequestStarted() => _service.Enter();

    /// <summary>A request's answer came (or none did) after <paramref name="inFlight"/>; <paramref name="fault"/> when it ended in a transient fault.</summary>
    public void RequestEnded(TimeSpan inFlight, bool fault)
    {
        _service.Leave();
        Interlocked.Add(ref _inFlightTicks, inFlight.Ticks);
        if (fault)
        {
            Interlocked.Add(ref _faultAttemptTicks, inFlight.Ticks);
        }
    }

    /// <summary>A batch begins to back off before a retry: after a throttled answer, or after a transient fault.</summary>
    public void BackoffStarted(bool throttled) => (throttled ? _throttledBackoff : _faultBackoff).Enter();

    /// <summary>A batch's back-off ended after <paramref name="waited"/>; <paramref name="retried"/> when an attempt follows it (not when the load stopped it).</summary>
    public void BackoffEnded(bool throttled, TimeSpan waited, bool retried)
    {
        if (throttled)
        {
            _throttledBackoff.Leave();
            Interlocked.Add(ref _throttledBackoffTicks, waited.Ticks);
            Interlocked.Add(ref _retriesAfterThrottling, retried ? 1 : 0);
        }
        else
        {
            _faultBackoff.Leave();
            Interlocked.Add(ref _faultBackoffTicks, waited.Ticks);
            Interlocked.Add(ref _retriesAfterFaults, retried ? 1 : 0);
        }
    }

    public LoadTimesSnapshot Snapshot() => new(
        Reader: Ticks(ref _readerTicks),
        ReaderBlocked: Ticks(ref _readerBlockedTicks),
        Batcher: Ticks(ref _batcherTicks),
        BatcherWaitingForRows: Ticks(ref _batcherWaitingForRowsTicks),
        BatcherWaitingForDispatcher: Ticks(ref _batcherWaitingForDispatcherTicks),
        Service: _service.Busy,
        InFlight: Ticks(ref _inFlightTicks),
        FaultAttempts: Ticks(ref _faultAttemptTicks),
        ThrottledBackoffWall: _throttledBackoff.Busy,
        ThrottledBackoff: Ticks(ref _throttledBackoffTicks),
        FaultBackoffWall: _faultBackoff.Busy,
        FaultBackoff: Ticks(ref _faultBackoffTicks),
        PacedWall: _pacing.Busy,
        Paced: Ticks(ref _pacedTicks),
        SlotWaits: Ticks(ref _slotWaitTicks),
        RetriesAfterThrottling: Interlocked.Read(ref _retriesAfterThrottling),
        RetriesAfterFaults: Interlocked.Read(ref _retriesAfterFaults),
        Cpu: TimeSpan.FromTicks(Math.Max(0, Environment.CpuUsage.TotalTime.Ticks - Interlocked.Read(ref _cpuAtStartTicks))));

    private static TimeSpan Ticks(ref long ticks) => TimeSpan.FromTicks(Interlocked.Read(ref ticks));
}

/// <summary>
/// A reading of <see cref="LoadTimes"/>. Wall times (<c>Service</c>, <c>…Wall</c>) count a moment once however many
/// batches shared it; the others are summed over batches, so they can exceed the load's elapsed time.
/// </summary>
/// <param name="Reader">The read thread's running time (reading, decompressing, parsing, mapping, and waiting on the next stage).</param>
/// <param name="ReaderBlocked">Of it, the time it waited for the batch stage to take its rows.</param>
/// <param name="Batcher">The batch thread's running time.</param>
/// <param name="BatcherWaitingForRows">Of it, the time it waited for rows.</param>
/// <param name="BatcherWaitingForDispatcher">Of it, the time it waited for the dispatcher to take batches.</param>
/// <param name="Service">Wall time with at least one request at the service.</param>
/// <param name="InFlight">Requests' time at the service, summed.</param>
/// <param name="FaultAttempts">Of <paramref name="InFlight"/>, that of requests that ended in a transient fault (5xx, timeout, no answer).</param>
/// <param name="ThrottledBackoffWall">Wall time with at least one batch backing off after a throttled answer.</param>
/// <param name="ThrottledBackoff">Back-off after throttled answers, summed over batches.</param>
/// <param name="FaultBackoffWall">Wall time with at least one batch backing off after a transient fault.</param>
/// <param name="FaultBackoff">Back-off after transient faults, summed over batches.</param>
/// <param name="PacedWall">Wall time with at least one batch waiting for the pace.</param>
/// <param name="Paced">Waits for the pace, summed over batches.</param>
/// <param name="SlotWaits">Waits for a concurrency slot, summed over batches.</param>
/// <param name="RetriesAfterThrottling">Attempts that followed a throttled answer.</param>
/// <param name="RetriesAfterFaults">Attempts that followed a transient fault.</param>
/// <param name="Cpu">CPU time the process used since the load started, on every core.</param>
internal sealed record LoadTimesSnapshot(
    TimeSpan Reader,
    TimeSpan ReaderBlocked,
    TimeSpan Batcher,
    TimeSpan BatcherWaitingForRows,
    TimeSpan BatcherWaitingForDispatcher,
    TimeSpan Service,
    TimeSpan InFlight,
    TimeSpan FaultAttempts,
    TimeSpan ThrottledBackoffWall,
    TimeSpan ThrottledBackoff,
    TimeSpan FaultBackoffWall,
    TimeSpan FaultBackoff,
    TimeSpan PacedWall,
    TimeSpan Paced,
    TimeSpan SlotWaits,
    long RetriesAfterThrottling,
    long RetriesAfterFaults,
    TimeSpan Cpu);
