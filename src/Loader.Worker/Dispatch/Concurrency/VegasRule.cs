using Loader.Abstractions;

namespace Loader.Worker.Dispatch.Concurrency;

/// <summary>
/// The adaptive concurrency limit's rule: batches in flight learned from what the service answers, round by round (a
/// round: as many answers as the limit). Two signals decide:
/// <list type="bullet">
/// <item><b>Pushback</b> — a throttle across partitions (see <see cref="ThrottleSignal"/>; a hot partition alone waits on
/// its own) or a request that got no answer: 30% fewer slots, at most once per round so the answers to requests
/// already in flight do not collapse it (AIMD).</item>
/// <item><b>Latency</b> (TCP Vegas) — each answer's latency is compared with what a request of its size takes with no
/// queue before it (<see cref="LatencyBaseline"/>). From a round's median ratio the number of this load's own requests
/// waiting at the service is <c>limit × (1 − 1/ratio)</c>: under <see cref="QueueLow"/> one more slot, over
/// <see cref="QueueHigh"/> fewer by the excess, in between the limit holds — more requests in flight would only wait in the
/// queue, adding latency and no throughput (as on a service of one worker, such as Azurite). A service that takes more
/// in parallel answers as fast with more in flight, so the limit climbs to the maximum there.</item>
/// </list>
/// The baseline (<see cref="LatencyBaseline"/>) is the lowest latency seen times the service's noise, proven free of this
/// load's own queue by requests sent alone: probes — the limit held at one for a few answers — <see cref="FirstProbeAfter"/>
/// into the load, then every <see cref="ProbeInterval"/> while a queue is seen, no request went alone within the
/// baseline's window, or answers came of a size none went alone for (whose latency then decides nothing), since a
/// service that slows as its tables grow would otherwise leave the baseline behind (BBR's ProbeRTT), and a baseline
/// taken among many requests would call their queue normal and let the limit climb past the knee.
/// Written here because no library on the team's mirror adapts concurrency to latency (Polly and
/// System.Threading.RateLimiting hold fixed limits; Netflix's concurrency-limits is Java, and its .NET port,
/// ConcurrencyLimits, is not on the mirror).
/// </summary>
internal sealed class VegasRule : IConcurrencyRule
{
    /// <summary>Below this many requests queued at the service, the limit grows.</summary>
    /// <remarks>
    /// Against a service of one worker two requests in flight read as just under one queued (the network's share of the
    /// latency is no queue), so a threshold of one would add a third request that only waits.
    /// </remarks>
    public const double QueueLow = 0.5;

    /// <summary>Above this many requests queued at the service, the limit shrinks, by as many slots as the excess.</summary>
    /// <remarks>
    /// About one request waiting keeps a service of one worker busy; each more only adds its service time to every
    /// answer's latency.
    /// </remarks>
    public const double QueueHigh = 1.5;

    private const double DecreaseFactor = 0.7;

    /// <summary>A round whose median latency is this many times the baseline shows a queue worth probing under.</summary>
    private const double QueueingRatio = 1.5;

    private const int ProbeAnswers = 3;

    public static readonly TimeSpan ProbeInterval = TimeSpan.FromSeconds(10);

    /// <summary>
    /// When the first probe may come: soon, since the load's first requests went out together (or alone but slow, with
    /// connections opening and code compiling) and a short load would otherwise run its whole length on their baseline.
    /// </summary>
    public static readonly TimeSpan FirstProbeAfter = TimeSpan.FromSeconds(0.5);

    /// <summary>How long a probe may hold the limit at one before it ends regardless (a service answering in seconds).</summary>
    private static readonly TimeSpan s_probeTimeLimit = TimeSpan.FromSeconds(5);

    private readonly int _min;
    private readonly int _max;
    private readonly TimeProvider _time;
    private readonly LatencyBaseline _baseline;
    private readonly List<double> _roundRatios = [];
    private int _limit;
    private int _served;
    private bool _roundUnknownSizes;
    private bool _roundUsedLimit;
    private int _answersSinceDecrease;
    private bool _probing;
    private int _probeAnswersLeft;
    private long _probeStarted;
    private long _nextProbe;

    public VegasRule(int initial, int min, int max, TimeProvider timeProvider)
    {
        _min = Math.Max(1, min);
        _max = Math.Max(_min, max);
        _limit = Math.Clamp(initial, _min, _max);
        _time = timeProvider;
        _baseline = new LatencyBaseline(_time, ProbeInterval, periods: 3);
        var now = _time.GetTimestamp();
        _nextProbe = now + (long)(FirstProbeAfter.TotalSeconds * _time.TimestampFrequency);
        _answersSinceDecrease = _limit;
    }

    public ConcurrencyDecision Decision => new(_limit, _probing);

    public ConcurrencyDecision Observe(in AttemptObservation attempt)
    {
        var status = attempt.Outcome.Status;
        if (status == BatchStatus.Throttled && !attempt.ServiceWidePushback)
        {
            return Decision; // a hot partition waits on its own
        }

        _answersSinceDecrease++;
        if (status is BatchStatus.Throttled or BatchStatus.Transient)
        {
            PushedBack();
        }
        else if (status is BatchStatus.Written or BatchStatus.OperationsRejected)
        {
            Served(attempt);
        }

        return Decision;
    }

    private void Served(in AttemptObservation attempt)
    {
        var measured = attempt.Outcome.Latency > TimeSpan.Zero;
        double? ratio = measured ? _baseline.Add(attempt.Rows, attempt.Outcome.Latency, attempt.InFlightAtStart <= 1) : null;
        var now = _time.GetTimestamp();
        if (_probing)
        {
            if ((attempt.InFlightAtStart <= 1 && --_probeAnswersLeft == 0) || _time.GetElapsedTime(_probeStarted, now) > s_probeTimeLimit)
            {
                EndProbe(now);
            }

            return;
        }

        _roundUsedLimit |= attempt.InFlightAtStart >= _limit;
        if (ratio is { } r)
        {
            _roundRatios.Add(r);
        }
        else if (measured)
        {
            _roundUnknownSizes = true; // no request of its size went alone yet: its latency cannot tell a queue
        }

        if (++_served >= _limit)
        {
            EndRound(now);
        }
    }

    private void PushedBack()
    {
        StartRound();
        if (_answersSinceDecrease >= _limit)
        {
            _limit = Math.Max(_min, (int)(_limit * DecreaseFactor));
            _answersSinceDecrease = 0;
        }
    }

    /// <summary>Vegas: the queue this load keeps at the service, from the round's median latency against the baseline.</summary>
    private void EndRound(long now)
    {
        var change = 0;
        var probe = false;
        if (_roundRatios.Count == 0)
        {
            // An adapter that measures no latency: grow while answers are healthy, as AIMD does. Answers only of sizes no
            // request went alone for: hold, and send some alone.
            change = _roundUnknownSizes ? 0 : 1;
            probe = _roundUnknownSizes && now >= _nextProbe;
        }
        else
        {
            _roundRatios.Sort();
            var median = _roundRatios[_roundRatios.Count / 2];
            var queued = _limit * (1 - (1 / median));
            // Down by the whole excess at once (as Gradient2 does): a service that slowed suddenly would otherwise make
            // every answer of several rounds wait behind a queue the limiter already knows about.
            change = queued < QueueLow ? 1 : queued > QueueHigh ? -Math.Max(1, (int)(queued - QueueHigh)) : 0;
            // No growth when fewer were in flight than the limit (a load's last batches: a short queue then proves nothing
            // of more), or when most of the round's answers were of sizes none went alone for (the small batches a load's
            // end flushes): a median of so few is noise.
            if (change > 0 && (!_roundUsedLimit || _roundRatios.Count * 2 <= _limit))
            {
                change = 0;
            }

            probe = now >= _nextProbe && (median >= QueueingRatio || !_baseline.Trusted || _roundUnknownSizes);
        }

        StartRound();
        _limit = Math.Clamp(_limit + change, _min, _max);
        if (probe && _limit > 1)
        {
            _probing = true;
            _probeAnswersLeft = ProbeAnswers;
            _probeStarted = now;
        }
    }

    private void EndProbe(long now)
    {
        _probing = false;
        _nextProbe = now + (long)(ProbeInterval.TotalSeconds * _time.TimestampFrequency);
        StartRound();
    }

    private void StartRound()
    {
        _served = 0;
        _roundRatios.Clear();
        _roundUnknownSizes = false;
        _roundUsedLimit = false;
    }
}
