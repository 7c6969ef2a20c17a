using Loader.Abstractions;
using Loader.Worker.Dispatch.Pacing;
using Microsoft.Extensions.Time.Testing;

namespace Loader.Worker.Tests.Dispatch.Pacing;

/// <summary>The pacer's arithmetic on a simulated clock: what a cap lets through in a given time, nothing waited for real.</summary>
public sealed class RatePacerTests
{
    private const int BatchRows = 100;
    private readonly FakeTimeProvider _time = new();

    /// <summary>
    /// Sends batches of <see cref="BatchRows"/> rows for <paramref name="duration"/> of simulated time, each settled at
    /// <paramref name="chargePerRow"/> request units a row; returns the rows sent and what the pacer took for each batch.
    /// </summary>
    private async Task<(int Rows, List<double> Taken)> SendAsync(RatePacer pacer, double chargePerRow, TimeSpan duration)
    {
        var rows = 0;
        var taken = new List<double>();
        var end = _time.GetUtcNow() + duration;
        while (_time.GetUtcNow() < end)
        {
            var wait = pacer.WaitAsync(BatchRows, CancellationToken.None).AsTask();
            while (!wait.IsCompleted)
            {
                _time.Advance(TimeSpan.FromMilliseconds(1));
                await Task.Yield();
            }

            var take = await wait;
            taken.Add(take);
            pacer.Observe(BatchOutcome.Written(202, TimeSpan.Zero, chargePerRow == 0 ? null : chargePerRow * BatchRows), BatchRows, take, serviceWidePushback: false);
            rows += BatchRows;
        }

        return (rows, taken);
    }

    [Fact]
    public async Task A_row_cap_lets_through_its_rate_over_time_plus_the_fifth_of_a_second_it_holds()
    {
        var pacer = new RatePacer(maxRowsPerSecond: 400, maxRequestUnitsPerSecond: null, adaptive: false, _time);

        var (rows, taken) = await SendAsync(pacer, chargePerRow: 0, TimeSpan.FromSeconds(10));

        // 10 s at 400 rows/s and the 80 the bucket holds at the start, give or take the batch that crosses the end.
        Assert.InRange(rows, 4_000, 4_000 + 80 + BatchRows);
        Assert.All(taken, take => Assert.Equal(0, take)); // no request-unit pace: nothing taken in request units
        Assert.Null(pacer.RequestUnitRate);
    }

    [Fact]
    public async Task A_request_unit_cap_takes_each_batchs_expected_charge_and_holds_the_rate()
    {
        var pacer = new RatePacer(maxRowsPerSecond: null, maxRequestUnitsPerSecond: 4_000, adaptive: false, _time);

        var (rows, taken) = await SendAsync(pacer, chargePerRow: 5, TimeSpan.FromSeconds(10));

        // The first batch goes before any charge is known; every later one takes rows × the charge learned (5 RU a row).
        Assert.Equal(0, taken[0]);
        Assert.All(taken.Skip(1), take => Assert.Equal(500, take, 6));
        // 40,000 RU in 10 s and the 800 held at the start, at 500 RU a batch, give or take the batch that crosses the end.
        Assert.InRange(rows, 8_000, (40_800 / 5) + (2 * BatchRows));
        Assert.Equal(4_000, pacer.RequestUnitRate);
    }

    [Fact]
    public async Task A_batch_that_cost_less_than_expected_gives_the_difference_back_to_the_pace()
    {
        var pacer = new RatePacer(maxRowsPerSecond: null, maxRequestUnitsPerSecond: 4_000, adaptive: false, _time);
        await SendAsync(pacer, chargePerRow: 5, TimeSpan.FromSeconds(1)); // learns 5 RU a row

        // Each batch now takes 500 RU before it goes and costs 250: the 250 given back double the rows per second.
        var (rows, _) = await SendAsync(pacer, chargePerRow: 2.5, TimeSpan.FromSeconds(10));

        // Net, every batch costs its 250: 40,000 RU in 10 s are 16,000 rows, give or take what the bucket held or owed
        // from the first second. Kept instead, the overestimates (5 a row, falling toward 2.5 as the estimate averages
        // the answers) would cost about a thousand rows.
        Assert.InRange(rows, 15_700, 16_600);
    }

    [Fact]
    public void What_a_partly_throttled_non_atomic_attempt_wrote_counts_toward_the_learned_rate()
    {
        // Cosmos DB bulk under pressure: every attempt lands some items (charged) and has the others throttled,
        // 50 RU every tenth of a second. The service accepted 500 RU/s: that is the budget to learn.
        var pacer = new RatePacer(maxRowsPerSecond: null, maxRequestUnitsPerSecond: null, adaptive: true, _time);
        var partlyThrottled = new BatchOutcome { Status = BatchStatus.Throttled, StatusCode = 429, RequestCharge = 50, ThrottledResponses = 10, AppliedOperations = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] };
        for (var i = 0; i < 30; i++)
        {
            pacer.Observe(partlyThrottled, rows: 20, taken: 0, serviceWidePushback: false);
            _time.Advance(TimeSpan.FromMilliseconds(100));
        }

        pacer.Observe(partlyThrottled with { RequestCharge = 0, AppliedOperations = [] }, rows: 20, taken: 0, serviceWidePushback: true);

        Assert.NotNull(pacer.RequestUnitRate);
        Assert.Equal(0.96 * 500, pacer.RequestUnitRate.Value, 0);
    }

    [Fact]
    public void A_throttled_transaction_delivers_nothing_and_the_rate_is_learned_from_the_accepted_ones()
    {
        var pacer = new RatePacer(maxRowsPerSecond: null, maxRequestUnitsPerSecond: null, adaptive: true, _time);
        for (var i = 0; i < 30; i++)
        {
            pacer.Observe(BatchOutcome.Written(200, TimeSpan.FromMilliseconds(5), 100), rows: 20, taken: 0, serviceWidePushback: false);
            pacer.Observe(new BatchOutcome { Status = BatchStatus.Throttled, StatusCode = 429, RequestCharge = 0, ThrottledResponses = 1 }, rows: 20, taken: 0, serviceWidePushback: false);
            _time.Advance(TimeSpan.FromMilliseconds(100));
        }

        pacer.Observe(new BatchOutcome { Status = BatchStatus.Throttled, StatusCode = 429, ThrottledResponses = 1 }, rows: 20, taken: 0, serviceWidePushback: true);

        Assert.Equal(0.96 * 1_000, pacer.RequestUnitRate!.Value, 0);
    }
}
