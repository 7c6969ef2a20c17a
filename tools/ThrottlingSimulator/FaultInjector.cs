namespace Loader.ThrottlingSimulator;

/// <summary>What the simulator does to a batch instead of (or before) charging it.</summary>
public enum Fault
{
    None,

    /// <summary>503 ServerBusy, not forwarded: Azure Storage's throttling answer.</summary>
    ServerBusy,

    /// <summary>500 OperationTimedOut, not forwarded: Azure Storage's other throttling answer.</summary>
    OperationTimedOut,

    /// <summary>The connection is cut without an answer.</summary>
    Drop,

    /// <summary>Held for a while before it goes on, past the client's patience if that is shorter.</summary>
    Hold,
}

/// <summary>
/// Draws faults and latency from one seeded generator, so a run with the same seed and the same order of
/// batches meets the same faults. One draw per batch picks at most one fault.
/// </summary>
public sealed class FaultInjector
{
    private readonly Lock _lock = new();
    private readonly Random _random;
    private readonly double _serverBusyRate;
    private readonly double _timeoutRate;
    private readonly double _dropRate;
    private readonly double _holdRate;
    private readonly int _latencyMs;
    private readonly int _jitterMs;

    public FaultInjector(SimulatorOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        _random = options.Seed is { } seed ? new Random(seed) : new Random();
        _serverBusyRate = options.Fault503Rate;
        _timeoutRate = options.Fault500Rate;
        _dropRate = options.DropRate;
        _holdRate = options.HoldRate;
        HoldFor = TimeSpan.FromMilliseconds(options.HoldMs);
        _latencyMs = options.LatencyMs;
        _jitterMs = options.LatencyJitterMs;
    }

    /// <summary>How long a <see cref="Fault.Hold"/> lasts.</summary>
    public TimeSpan HoldFor { get; }

    public Fault NextFault()
    {
        if (_serverBusyRate + _timeoutRate + _dropRate + _holdRate <= 0)
        {
            return Fault.None;
        }

        double draw;
        lock (_lock)
        {
            draw = _random.NextDouble();
        }

        return draw < _serverBusyRate ? Fault.ServerBusy
            : draw < _serverBusyRate + _timeoutRate ? Fault.OperationTimedOut
            : draw < _serverBusyRate + _timeoutRate + _dropRate ? Fault.Drop
            : draw < _serverBusyRate + _timeoutRate + _dropRate + _holdRate ? Fault.Hold
            : Fault.None;
    }

    /// <summary>The delay to add before forwarding a batch.</summary>
    public TimeSpan NextLatency()
    {
        if (_jitterMs == 0)
        {
            return TimeSpan.FromMilliseconds(_latencyMs);
        }

        int jitter;
        lock (_lock)
        {
            jitter = _random.Next(_jitterMs + 1);
        }

        return TimeSpan.FromMilliseconds(_latencyMs + (double)jitter);
    }
}
