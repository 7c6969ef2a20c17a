using Loader.Worker.Dispatch.Concurrency;
using static Loader.Worker.Tests.Dispatch.Concurrency.ConcurrencyAnswers;

namespace Loader.Worker.Tests.Dispatch.Concurrency;

/// <summary>The slots and their waiters alone, whatever decides how many are open.</summary>
public sealed class SlotGateTests
{
    [Fact]
    public async Task Holds_callers_at_the_open_slots_and_lets_them_in_in_order_as_slots_are_given_back()
    {
        var gate = new SlotGate(2);
        var first = await gate.AcquireAsync(CancellationToken.None);
        using var second = await gate.AcquireAsync(CancellationToken.None);
        var third = gate.AcquireAsync(CancellationToken.None).AsTask();
        var fourth = gate.AcquireAsync(CancellationToken.None).AsTask();
        Assert.False(third.IsCompleted);

        first.Dispose();
        using var thirdLease = await Bounded(third);
        Assert.False(fourth.IsCompleted); // the third came first
        Assert.Equal(2, thirdLease.InFlightAtStart);

        thirdLease.Dispose();
        (await Bounded(fourth)).Dispose();
    }

    [Fact]
    public async Task Slots_opened_go_to_the_callers_waiting_and_fewer_slots_take_none_back()
    {
        var gate = new SlotGate(1);
        var first = await gate.AcquireAsync(CancellationToken.None);
        var second = gate.AcquireAsync(CancellationToken.None).AsTask();
        var third = gate.AcquireAsync(CancellationToken.None).AsTask();

        gate.Open(3);
        var secondLease = await Bounded(second);
        var thirdLease = await Bounded(third);
        Assert.Equal((2, 3), (secondLease.InFlightAtStart, thirdLease.InFlightAtStart));

        // Down to one: the three in flight go on; a new caller waits until fewer than one are.
        gate.Open(1);
        var fourth = gate.AcquireAsync(CancellationToken.None).AsTask();
        first.Dispose();
        secondLease.Dispose();
        Assert.False(fourth.IsCompleted);
        thirdLease.Dispose();
        using var fourthLease = await Bounded(fourth);
        Assert.Equal(1, fourthLease.InFlightAtStart);
    }

    [Fact]
    public async Task A_lease_disposed_twice_gives_back_one_slot()
    {
        var gate = new SlotGate(2);
        var first = await gate.AcquireAsync(CancellationToken.None);
        using var second = await gate.AcquireAsync(CancellationToken.None);

        first.Dispose();
        first.Dispose();
        using var third = await gate.AcquireAsync(CancellationToken.None);

        Assert.False(gate.AcquireAsync(CancellationToken.None).AsTask().IsCompleted);
    }

    [Fact]
    public async Task A_cancelled_wait_gives_up_its_place_and_the_slot_goes_to_the_next_caller()
    {
        var gate = new SlotGate(1);
        var first = await gate.AcquireAsync(CancellationToken.None);
        using var stop = new CancellationTokenSource();
        var cancelled = gate.AcquireAsync(stop.Token).AsTask();
        var next = gate.AcquireAsync(stop.Token).AsTask();

        await stop.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => Bounded(cancelled));
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => Bounded(next));
        first.Dispose();

        // Both waiters are gone: the freed slot is there for a new caller at once.
        var again = gate.AcquireAsync(CancellationToken.None).AsTask();
        Assert.True(again.IsCompletedSuccessfully);
        (await again).Dispose();
    }

    [Fact]
    public async Task A_wait_that_got_its_slot_is_not_cancelled_afterwards()
    {
        var gate = new SlotGate(1);
        var first = await gate.AcquireAsync(CancellationToken.None);
        using var stop = new CancellationTokenSource();
        var waiting = gate.AcquireAsync(stop.Token).AsTask();

        first.Dispose();
        using var lease = await Bounded(waiting);
        await stop.CancelAsync(); // the registration is gone: nothing may touch the completed wait

        Assert.True(waiting.IsCompletedSuccessfully);
        Assert.False(gate.AcquireAsync(CancellationToken.None).AsTask().IsCompleted); // the slot is still held by lease
    }
}
