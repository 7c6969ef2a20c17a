using Loader.Abstractions;

namespace Loader.Worker.Dispatch.Concurrency;

/// <summary>
/// Batches in flight, learned from what the service answers, round by round (a round: as many answers as the limit).
/// Two signals decide:
/// <list type="bullet">
/// <item><b>Pushback</b> — a throttle across partitions (see <see cref="ThrottleSignal"/>; a hot partition alone waits on
/// its own) or a request that got no answer: 30% fewer slots, at most once per round so the answers to requests
/// already in flight do not collapse it (AIMD).</item>
/// <item><b>Latency</b> (TCP Vegas) — each answer's latency is compared with what a request of its size takes with no
/// queue before it (<see cref="LatencyBaseline"/>). From a round's median ratio the number of this load's own requests
/// waiting at the service is <c>limit × (1 − 1/ratio)</c>: under <see cref="QueueLow"/> one more slot, over
/// <see cref="QueueHigh"/> fewer by the excess, in between the limit holds — more requests in flight would only wait in the
/// queue, adding latency and no throughput (Azurite, one thread: p50 latency 18 ms with one batch in flight, 177 ms
/// with eight, at the same rows/s). A service that takes more in parallel answers as fast with more in flight, so the
/// limit climbs to the maximum there.</item>
/// </list>
/// The baseline comes from requests sent alone: the first of the load, and probes — the limit held at one for a
/// few answers — when answers come for sizes without a baseline, and every <see cref="ProbeInterval"/> while a queue
/// is seen, since a service that slows as its tables grow would otherwise leave the baseline behind (BBR's ProbeRTT).
/// Written here because no library on the team's mirror adapts concurrency to latency (Polly and
/// System.Threading.RateLimiting hold fixed limits; Netflix's concurrency-limits is Java).
/// </summary>
internal sealed class AdaptiveConcurrencyLimiter : IConcurrencyLimiter
{
    /// <summary>Below this many requests queued at the service, the limit grows.</summary>
    /// <remarks>
    /// With 0.5 (and <see cref="QueueHigh"/> 1.5) the limit averaged 1.5–1.7 in flight against Azurite on a busy
    /// machine, where one run gave 0.73 of Fixed-16's rows/s: latency noise read as a queue kept it at one too often.
    /// </remarks>
    public const double QueueLow = 1.0;

    /// <summary>Above this many requests queued at the service, the limit shrinks, by as many slots as the excess.</summary>
    /// <remarks>
    /// About one request waiting keeps a service of one worker busy; each more only adds its service time to every
    /// answer's latency. With 3 the limit settled at about 4 against Azurite, p99 latency 0.40–0.52 of Fixed-16's.
    /// </remarks>
    public const double QueueHigh = 2.0;

    private const double DecreaseFactor = 0.7;

    /// <summary>A round whose median latency is this many times the baseline shows a queue worth probing under.</summary>
    private const double QueueingRatio = 1.5;

    private const int ProbeAnswers = 3;

    public static readonly TimeSpan ProbeInterval = TimeSpan.FromSeconds(10);

    /// <summary>The least time between probes for sizes without a baseline, so a mix of sizes cannot keep the limit at one.</summary>
    private static readonly TimeSpan s_missingBaselineProbeSpacing = TimeSpan.FromSeconds(2);

    /// <summary>How long a probe may hold the limit at one before it ends regardless (a service answering in seconds).</summary>
    private static readonly TimeSpan s_probeTimeLimit = TimeSpan.FromSeconds(5);

    private readonly Lock _lock = new();
    private readonly Queue<TaskCompletionSource<ConcurrencyLease>> _waiters = new();
    private readonly int _min;
    private readonly int _max;
    private readonly ConcurrencyTimeline _timeline;
    private readonly TimeProvider _time;
    private readonly LatencyBaseline _baseline;
    private readonly List<double> _roundRatios = [];
    private int _limit;
    private int _inFlight;
    private int _served;
    private int _unmeasured;
    private int _answersSinceDecrease;
    private bool _probing;
    private int _probeAnswersLeft;
    private long _probeStarted;
    private long _nextProbe;
    private long _lastProbeEnded;

    public AdaptiveConcurrencyLimiter(int initial, int min, int max, ConcurrencyTimeline timeline, TimeProvider? timeProvider = null)
    {
        _min = Math.Max(1, min);
        _max = Math.Max(_min, max);
        _limit = Math.Clamp(initial, _min, _max);
        _timeline = timeline;
        _time = timeProvider ?? TimeProvider.System;
        _baseline = new LatencyBaseline(_time, ProbeInterval, periods: 3);
        var now = _time.GetTimestamp();
        _nextProbe = now + (long)(ProbeInterval.TotalSeconds * _time.TimestampFrequency);
        _lastProbeEnded = now - (long)(s_missingBaselineProbeSpacing.TotalSeconds * _time.TimestampFrequency);
        _answersSinceDecrease = _limit;
        timeline.Record(_limit);
    }

    public int Limit
    {
        get
        {
            lock (_lock)
            {
                return _limit;
            }
        }
    }

    /// <summary>Whether one request is going alone to refresh the latency baseline.</summary>
    internal bool Probing
    {
        get
        {
            lock (_lock)
            {
                return _probing;
            }
        }
    }

    /// <summary>Slots open now: the limit, or one while probing.</summary>
    private int Open => _probing ? 1 : _limit;

    public ValueTask<ConcurrencyLease> AcquireAsync(CancellationToken cancellationToken)
    {
        TaskCompletionSource<ConcurrencyLease> waiter;
        lock (_lock)
        {
            if (_inFlight < Open && _waiters.Count == 0)
            {
                return ValueTask.FromResult(Grant());
            }

            waiter = new TaskCompletionSource<ConcurrencyLease>(TaskCreationOptions.RunContinuationsAsynchronously);
            _waiters.Enqueue(waiter);
        }

        return cancellationToken.CanBeCanceled ? WaitAsync(waiter, cancellationToken) : new ValueTask<ConcurrencyLease>(waiter.Task);
    }

    /// <summary>
    /// Cancels the waiter itself (so a slot handed to it later is refused, not lost) and unregisters once it has its
    /// slot: the token lives as long as the load, and a registration left on it per wait would grow without end.
    /// </summary>
    private static async ValueTask<ConcurrencyLease> WaitAsync(TaskCompletionSource<ConcurrencyLease> waiter, CancellationToken cancellationToken)
    {
        using var registration = cancellationToken.Register(static state =>
        {
            var (waiting, token) = ((TaskCompletionSource<ConcurrencyLease>, CancellationToken))state!;
            waiting.TrySetCanceled(token);
        }, (waiter, cancellationToken));
        return await waiter.Task.ConfigureAwait(false);
    }

    public void Observe(in AttemptObservation attempt)
    {
        var status = attempt.Outcome.Status;
        if (status == BatchStatus.Throttled && !attempt.ServiceWidePushback)
        {
            return; // a hot partition waits on its own
        }

        lock (_lock)
        {
            _answersSinceDecrease++;
            if (status is BatchStatus.Throttled or BatchStatus.Transient)
            {
                PushedBack();
                return;
            }

            if (status is not (BatchStatus.Written or BatchStatus.OperationsRejected))
            {
                return;
            }

            var measured = attempt.Outcome.Latency > TimeSpan.Zero;
            var ratio = measured ? _baseline.Add(attempt.Rows, attempt.Outcome.Latency, attempt.InFlightAtStart <= 1) : null;
            var now = _time.GetTimestamp();
            if (_probing)
            {
                if ((attempt.InFlightAtStart <= 1 && --_probeAnswersLeft == 0) || _time.GetElapsedTime(_probeStarted, now) > s_probeTimeLimit)
                {
                    EndProbe(now);
                }

                return;
            }

            if (ratio is { } r)
            {
                _roundRatios.Add(r);
            }
            else if (!measured)
            {
                _unmeasured++;
            }

            if (++_served >= _limit)
            {
                EndRound(now);
            }
        }
    }

    private void PushedBack()
    {
        _served = 0;
        _unmeasured = 0;
        _roundRatios.Clear();
        if (_answersSinceDecrease >= _limit)
        {
            SetLimit(Math.Max(_min, (int)(_limit * DecreaseFactor)));
            _answersSinceDecrease = 0;
        }
    }

    /// <summary>Vegas: the queue this load keeps at the service, from the round's median latency against the baseline.</summary>
    private void EndRound(long now)
    {
        var change = 0;
        var probe = false;
        if (_unmeasured == _served)
        {
            change = 1; // an adapter that measures no latency: grow while answers are healthy, as AIMD does
        }
        else if (_roundRatios.Count * 2 < _served)
        {
            // Most answers were of sizes with no baseline yet: hold, and measure one.
            probe = _time.GetElapsedTime(_lastProbeEnded, now) >= s_missingBaselineProbeSpacing;
        }
        else
        {
            _roundRatios.Sort();
            var median = _roundRatios[_roundRatios.Count / 2];
            var queued = _limit * (1 - (1 / median));
            // Down by the whole excess at once (as Gradient2 does): a service that slowed suddenly would otherwise make
            // every answer of several rounds wait behind a queue the limiter already knows about.
            change = queued < QueueLow ? 1 : queued > QueueHigh ? -Math.Max(1, (int)(queued - QueueHigh)) : 0;
            probe = median >= QueueingRatio && now >= _nextProbe;
        }

        _served = 0;
        _unmeasured = 0;
        _roundRatios.Clear();
        SetLimit(Math.Clamp(_limit + change, _min, _max));
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
        _lastProbeEnded = now;
        _nextProbe = now + (long)(ProbeInterval.TotalSeconds * _time.TimestampFrequency);
        _served = 0;
        _unmeasured = 0;
        _roundRatios.Clear();
        ReleaseWaiters();
    }

    private void SetLimit(int limit)
    {
        if (limit == _limit)
        {
            return;
        }

        _limit = limit;
        _timeline.Record(limit);
        ReleaseWaiters();
    }

    private ConcurrencyLease Grant()
    {
        _inFlight++;
        return new ConcurrencyLease(_inFlight, Release);
    }

    private void Release()
    {
        lock (_lock)
        {
            _inFlight--;
            ReleaseWaiters();
        }
    }

    private void ReleaseWaiters()
    {
        while (_inFlight < Open && _waiters.TryDequeue(out var waiter))
        {
            var lease = Grant();
            if (!waiter.TrySetResult(lease))
            {
                _inFlight--; // the waiter was cancelled meanwhile: the slot stays free
            }
        }
    }
}
