using Loader.ThrottlingSimulator;
using Microsoft.Extensions.Time.Testing;

namespace Loader.Worker.Tests.Simulator;

public sealed class RequestBudgetTests
{
    private readonly FakeTimeProvider _clock = new();

    [Fact]
    public void Admits_within_the_budget_and_then_names_the_wait_rounded_up()
    {
        var budget = new RequestBudget(ruPerSecond: 1000, partitionRuPerSecond: 0, burstSeconds: 1, _clock);

        Assert.Equal(BudgetDecision.Admit, budget.TryCharge(600, null));
        Assert.Equal(new BudgetDecision(false, 200), budget.TryCharge(600, null));

        _clock.Advance(TimeSpan.FromMilliseconds(199));
        Assert.Equal(new BudgetDecision(false, 1), budget.TryCharge(600, null));

        _clock.Advance(TimeSpan.FromMilliseconds(1));
        Assert.True(budget.TryCharge(600, null).Admitted);
        Assert.False(budget.TryCharge(1, null).Admitted);
    }

    [Fact]
    public void A_fraction_of_a_millisecond_rounds_up_and_a_wait_is_at_least_one_millisecond()
    {
        var budget = new RequestBudget(ruPerSecond: 3, partitionRuPerSecond: 0, burstSeconds: 1, _clock);
        Assert.True(budget.TryCharge(3, null).Admitted);

        // One RU at 3 RU/s is 333.3 ms away.
        Assert.Equal(334, budget.TryCharge(1, null).RetryAfterMs);

        var fast = new RequestBudget(ruPerSecond: 1_000_000, partitionRuPerSecond: 0, burstSeconds: 1, _clock);
        Assert.True(fast.TryCharge(1_000_000, null).Admitted);
        Assert.Equal(1, fast.TryCharge(0.5, null).RetryAfterMs);
    }

    [Fact]
    public void The_burst_lets_several_seconds_of_budget_go_at_once()
    {
        var budget = new RequestBudget(ruPerSecond: 100, partitionRuPerSecond: 0, burstSeconds: 3, _clock);

        Assert.True(budget.TryCharge(300, null).Admitted);
        Assert.Equal(new BudgetDecision(false, 100), budget.TryCharge(10, null));
    }

    [Fact]
    public void A_refused_charge_takes_nothing_from_any_bucket()
    {
        var budget = new RequestBudget(ruPerSecond: 1000, partitionRuPerSecond: 100, burstSeconds: 1, _clock);
        Assert.True(budget.TryCharge(80, "hot").Admitted);

        // The account could pay, the partition cannot: refused, and the account keeps its 920.
        Assert.Equal(new BudgetDecision(false, 600), budget.TryCharge(80, "hot"));
        Assert.True(budget.TryCharge(920, null).Admitted);
        Assert.False(budget.TryCharge(1, "other").Admitted);
    }

    [Fact]
    public void Each_partition_has_its_own_bucket()
    {
        var budget = new RequestBudget(ruPerSecond: 10_000, partitionRuPerSecond: 100, burstSeconds: 1, _clock);

        Assert.True(budget.TryCharge(100, "a").Admitted);
        Assert.Equal(new BudgetDecision(false, 100), budget.TryCharge(10, "a"));
        Assert.True(budget.TryCharge(100, "b").Admitted);

        // A batch whose partition is unknown is held to the account budget only.
        Assert.True(budget.TryCharge(100, null).Admitted);
    }

    [Fact]
    public void The_account_wait_and_the_partition_wait_take_the_longer()
    {
        var budget = new RequestBudget(ruPerSecond: 100, partitionRuPerSecond: 50, burstSeconds: 1, _clock);
        Assert.True(budget.TryCharge(50, "a").Admitted);

        // Account: 50 left, needs 40 more at 100 RU/s = 400 ms. Partition: empty, 90 at 50 RU/s = 1800 ms, but it
        // never holds more than 50, so the wait is for a full bucket: 1000 ms.
        Assert.Equal(1000, budget.TryCharge(90, "a").RetryAfterMs);
        Assert.Equal(400, budget.TryCharge(90, "b").RetryAfterMs);
    }

    [Fact]
    public void With_no_account_budget_everything_is_admitted()
    {
        var budget = new RequestBudget(ruPerSecond: 0, partitionRuPerSecond: 0, burstSeconds: 1, _clock);

        for (var i = 0; i < 100; i++)
        {
            Assert.True(budget.TryCharge(1_000_000, "p").Admitted);
        }
    }

    [Fact]
    public void Fill_refills_the_account_and_forgets_the_partitions()
    {
        var budget = new RequestBudget(ruPerSecond: 100, partitionRuPerSecond: 10, burstSeconds: 1, _clock);
        Assert.True(budget.TryCharge(10, "p").Admitted);
        Assert.False(budget.TryCharge(10, "p").Admitted);

        budget.Fill();

        Assert.Equal(0, budget.PartitionBuckets);
        Assert.True(budget.TryCharge(10, "p").Admitted);
        Assert.True(budget.TryCharge(90, "q").Admitted);
    }

    [Fact]
    public void Full_partition_buckets_are_forgotten_as_the_map_grows()
    {
        var budget = new RequestBudget(ruPerSecond: 0, partitionRuPerSecond: 10, burstSeconds: 1, _clock);
        for (var i = 0; i < 10_000; i++)
        {
            Assert.True(budget.TryCharge(5, "p" + i).Admitted);
        }

        Assert.Equal(10_000, budget.PartitionBuckets);
        Assert.True(budget.TryCharge(5, "p0").Admitted);
        _clock.Advance(TimeSpan.FromMilliseconds(500));

        // p0 is still paying off its second charge; every other bucket has refilled and goes.
        Assert.True(budget.TryCharge(5, "new").Admitted);
        Assert.Equal(2, budget.PartitionBuckets);
        Assert.Equal(new BudgetDecision(false, 500), budget.TryCharge(10, "p0"));
    }

    [Fact]
    public void A_throughput_bucket_caps_the_requests_that_name_it_each_bucket_on_its_own()
    {
        var budget = new RequestBudget(ruPerSecond: 1000, partitionRuPerSecond: 0, burstSeconds: 1, _clock, throughputBucketRuPerSecond: 100);

        Assert.True(budget.TryCharge(80, null, "1").Admitted);
        Assert.Equal(new BudgetDecision(false, 600, ByThroughputBucket: true), budget.TryCharge(80, null, "1"));
        Assert.True(budget.TryCharge(80, null, "2").Admitted);
        Assert.True(budget.TryCharge(500, null).Admitted); // no bucket named: only the account's budget applies
        Assert.Equal(new BudgetDecision(false, 20), budget.TryCharge(360, null, "3")); // the bucket could pay, the account cannot
    }

    [Fact]
    public void Spending_what_an_operation_cost_beyond_its_admission_may_leave_the_buckets_in_debt()
    {
        var budget = new RequestBudget(ruPerSecond: 100, partitionRuPerSecond: 0, burstSeconds: 1, _clock, throughputBucketRuPerSecond: 50);
        Assert.True(budget.TryCharge(40, null, "1").Admitted);

        budget.Spend(30, null, "1");

        Assert.Equal(new BudgetDecision(false, 600, ByThroughputBucket: true), budget.TryCharge(10, null, "1")); // 20 RU in debt, 10 more wanted, at 50 RU/s
        Assert.Equal(300, budget.MillisecondsUntilAvailable(60, null)); // the account has 30 of its 100 left
    }
}
