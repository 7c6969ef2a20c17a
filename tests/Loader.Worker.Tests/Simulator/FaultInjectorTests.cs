using Loader.ThrottlingSimulator;

namespace Loader.Worker.Tests.Simulator;

public sealed class FaultInjectorTests
{
    [Fact]
    public void No_rates_means_no_faults_and_no_latency()
    {
        var faults = new FaultInjector(new SimulatorOptions());

        Assert.All(Enumerable.Range(0, 1000), _ => Assert.Equal(Fault.None, faults.NextFault()));
        Assert.Equal(TimeSpan.Zero, faults.NextLatency());
    }

    [Theory]
    [InlineData(1.0, 0.0, 0.0, Fault.ServerBusy)]
    [InlineData(0.0, 1.0, 0.0, Fault.OperationTimedOut)]
    [InlineData(0.0, 0.0, 1.0, Fault.Drop)]
    public void A_rate_of_one_faults_every_batch(double serverBusy, double timeout, double drop, Fault expected)
    {
        var faults = new FaultInjector(new SimulatorOptions { Fault503Rate = serverBusy, Fault500Rate = timeout, DropRate = drop });

        Assert.All(Enumerable.Range(0, 1000), _ => Assert.Equal(expected, faults.NextFault()));
    }

    [Fact]
    public void Rates_split_the_draws_in_proportion()
    {
        var faults = new FaultInjector(new SimulatorOptions { Fault503Rate = 0.2, Fault500Rate = 0.1, DropRate = 0.05, Seed = 11 });

        var counts = Enumerable.Range(0, 20_000).Select(_ => faults.NextFault()).CountBy(fault => fault).ToDictionary();

        Assert.InRange(counts[Fault.ServerBusy], 3_700, 4_300);
        Assert.InRange(counts[Fault.OperationTimedOut], 1_800, 2_200);
        Assert.InRange(counts[Fault.Drop], 850, 1_150);
        Assert.InRange(counts[Fault.None], 12_400, 13_600);
    }

    [Fact]
    public void The_same_seed_repeats_the_same_faults_and_latencies()
    {
        var options = new SimulatorOptions { Fault503Rate = 0.3, DropRate = 0.1, LatencyMs = 5, LatencyJitterMs = 20, Seed = 42 };
        var first = new FaultInjector(options);
        var second = new FaultInjector(options);

        var a = Enumerable.Range(0, 200).Select(_ => (first.NextFault(), first.NextLatency())).ToList();
        var b = Enumerable.Range(0, 200).Select(_ => (second.NextFault(), second.NextLatency())).ToList();

        Assert.Equal(a, b);
        Assert.All(a, pair => Assert.InRange(pair.Item2, TimeSpan.FromMilliseconds(5), TimeSpan.FromMilliseconds(25)));
        Assert.True(a.Select(pair => pair.Item2).Distinct().Count() > 5, "jitter varies the latency");
    }
}
