using Loader.Abstractions;
using Loader.Worker.Dispatch.Pacing;
using Microsoft.Extensions.Time.Testing;

namespace Loader.Worker.Tests.Dispatch.Pacing;

public sealed class RatePacerTests
{
    private readonly FakeTimeProvider _time = new();

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
