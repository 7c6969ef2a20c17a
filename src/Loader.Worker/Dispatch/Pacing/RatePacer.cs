using Loader.Abstractions;

namespace Loader.Worker.Dispatch.Pacing;

/// <summary>
/// Paces batches before they are sent: by rows (<c>Loader:MaxRowsPerSecond</c>) and by request units — at most
/// <c>Loader:MaxRequestUnitsPerSecond</c>, and, in adaptive mode, at the rate learned from the service's 429s.
/// A batch takes its expected charge (rows × the measured charge per row) before it goes and the real charge is
/// settled from the answer — except after a 429: a throttled attempt keeps its place in the pace, so the retries
/// of many batches cannot together outrun the service. The buckets hold a fifth of a second, so batches go out
/// evenly spread rather than in bursts that a service's own bucket would refuse. Waits happen inside the batch's
/// concurrency slot (the pace, not the slots, is then the limit), never inside a retry's backoff.
/// </summary>
internal sealed class RatePacer
{
    private const double BurstSeconds = 0.2;

    private readonly RateBucket? _rows;
    private readonly RateBucket _requestUnits;
    private readonly RequestUnitRateController? _controller;
    private readonly bool _adaptive;
    private readonly Lock _lock = new();
    private double _chargePerRow;

    /// <param name="maxRowsPerSecond">Rows per second at most, or null.</param>
    /// <param name="maxRequestUnitsPerSecond">Request units per second at most, or null.</param>
    /// <param name="adaptive">Learn the request-unit rate from the service's 429s.</param>
    /// <param name="timeProvider">Clock of the buckets.</param>
    public RatePacer(double? maxRowsPerSecond, double? maxRequestUnitsPerSecond, bool adaptive, TimeProvider timeProvider)
    {
        _adaptive = adaptive;
        _rows = maxRowsPerSecond is { } rows ? new RateBucket(rows, BurstSeconds, timeProvider) : null;
        _controller = adaptive || maxRequestUnitsPerSecond is not null ? new RequestUnitRateController(timeProvider, maxRequestUnitsPerSecond) : null;
        _requestUnits = new RateBucket(_controller?.Rate ?? double.PositiveInfinity, BurstSeconds, timeProvider);
    }

    /// <summary>The request-unit rate being paced at; null when unlimited.</summary>
    public double? RequestUnitRate => _controller?.Rate is { } rate && !double.IsPositiveInfinity(rate) ? rate : null;

    /// <summary>Waits until <paramref name="rows"/> rows may be sent; returns the request units taken for them.</summary>
    public async ValueTask<double> WaitAsync(int rows, CancellationToken cancellationToken)
    {
        if (_rows is not null)
        {
            await _rows.TakeAsync(rows, cancellationToken).ConfigureAwait(false);
        }

        if (_controller is null)
        {
            return 0;
        }

        SyncRate();
        double expected;
        lock (_lock)
        {
            expected = _chargePerRow * rows;
        }

        await _requestUnits.TakeAsync(expected, cancellationToken).ConfigureAwait(false);
        return expected;
    }

    /// <summary>Settles what an attempt really cost and learns from how it ended.</summary>
    public void Observe(BatchOutcome outcome, int rows, double taken, bool serviceWidePushback)
    {
        if (_controller is null)
        {
            return;
        }

        var charge = outcome.RequestCharge ?? 0;
        if (outcome.Status == BatchStatus.Throttled)
        {
            // A non-atomic write (Cosmos DB bulk) lands some items while others are throttled: what it was charged
            // got through, and belongs in the rate the service accepted. A throttled transaction is charged nothing.
            if (charge > 0)
            {
                _controller.Delivered(charge);
            }

            if (_adaptive && serviceWidePushback)
            {
                _controller.Throttled();
                SyncRate();
            }

            return;
        }

        _requestUnits.Settle(taken - charge);

        if (charge > 0)
        {
            _controller.Delivered(charge);
            lock (_lock)
            {
                // A moving average, so one odd batch does not swing the next estimates.
                var perRow = charge / Math.Max(1, rows);
                _chargePerRow = _chargePerRow == 0 ? perRow : (_chargePerRow * 0.9) + (perRow * 0.1);
            }
        }
    }

    private void SyncRate()
    {
        var rate = _controller!.Rate;
        if (Math.Abs(rate - _requestUnits.RatePerSecond) > rate * 0.001 || double.IsPositiveInfinity(rate) != double.IsPositiveInfinity(_requestUnits.RatePerSecond))
        {
            _requestUnits.SetRate(rate);
        }
    }
}
