using Loader.Worker.Configuration;
using Loader.Worker.Dispatch.Concurrency;
using Loader.Worker.Dispatch.Pacing;

namespace Loader.Worker.Dispatch;

/// <summary>What sets the pace of one load: the concurrency limiter, the rate pacer, and the signal that tells a hot partition from service-wide pushback.</summary>
internal sealed class DispatchControls : IDisposable
{
    /// <summary>How far back throttles from other partitions count as the same episode of pushback.</summary>
    private static readonly TimeSpan s_throttleWindow = TimeSpan.FromSeconds(5);

    /// <summary>
    /// Where the adaptive limit starts: one request served and one waiting, enough for a service of one worker; a service
    /// that takes more is climbed to in a few rounds, while a start above the knee makes the load's first answers its
    /// slowest (service and client still cold).
    /// </summary>
    internal const int InitialAdaptiveLimit = 2;

    public DispatchControls(LoaderOptions options, TimeProvider timeProvider)
    {
        var adaptive = options.Concurrency == ConcurrencyMode.Adaptive;
        Timeline = new ConcurrencyTimeline(timeProvider);
        Signal = new ThrottleSignal(timeProvider, s_throttleWindow);
        if (adaptive)
        {
            Limiter = new AdaptiveConcurrencyLimiter(Math.Min(InitialAdaptiveLimit, options.MaxParallelBatches), 1, options.MaxParallelBatches, Timeline, timeProvider);
        }
        else
        {
            Limiter = new FixedConcurrencyLimiter(options.MaxParallelBatches);
            Timeline.Record(options.MaxParallelBatches);
        }

        Pacer = new RatePacer(options.MaxRowsPerSecond, options.MaxRequestUnitsPerSecond, adaptive, timeProvider);
    }

    public IConcurrencyLimiter Limiter { get; }

    public RatePacer Pacer { get; }

    public ThrottleSignal Signal { get; }

    public ConcurrencyTimeline Timeline { get; }

    public void Dispose() => (Limiter as IDisposable)?.Dispose();
}
