using Loader.ThrottlingSimulator;

namespace Loader.Worker.Tests.Simulator;

public sealed class CommandLineTests
{
    [Fact]
    public void Every_option_maps_to_its_setting()
    {
        var options = CommandLine.Parse([
            "--upstream", "http://127.0.0.1:20002", "--host", "0.0.0.0", "--port", "10102",
            "--ru-per-second", "5000", "--burst-seconds", "2.5", "--ru-per-kb", "6.5", "--partition-ru-per-second", "1000",
            "--fault-503-rate", "0.1", "--fault-500-rate", "0.05", "--drop-rate", "0.01",
            "--latency-ms", "20", "--latency-jitter-ms", "10", "--seed", "7",
        ]);

        Assert.Equal(
            new SimulatorOptions
            {
                Upstream = new Uri("http://127.0.0.1:20002"),
                Host = "0.0.0.0",
                Port = 10102,
                RuPerSecond = 5000,
                BurstSeconds = 2.5,
                RuPerKilobyte = 6.5,
                PartitionRuPerSecond = 1000,
                Fault503Rate = 0.1,
                Fault500Rate = 0.05,
                DropRate = 0.01,
                LatencyMs = 20,
                LatencyJitterMs = 10,
                Seed = 7,
            },
            options);
    }

    [Fact]
    public void No_arguments_give_the_defaults()
    {
        var options = CommandLine.Parse([]);

        Assert.Equal(new SimulatorOptions(), options);
        Assert.Equal(new Uri("http://127.0.0.1:10002"), options.Upstream);
        Assert.Equal("127.0.0.1", options.Host);
        Assert.Equal(RequestCostModel.DefaultRuPerKilobyte, options.RuPerKilobyte);
        Assert.Equal(1, options.BurstSeconds);
        Assert.Equal(0, options.PartitionRuPerSecond);
    }

    [Theory]
    [InlineData("--nope", "1")]
    [InlineData("--port")]
    [InlineData("--port", "many")]
    [InlineData("--port", "70000")]
    [InlineData("--upstream", "not a url")]
    [InlineData("--upstream", "ftp://host")]
    [InlineData("--ru-per-second", "-1")]
    [InlineData("--burst-seconds", "0")]
    [InlineData("--ru-per-kb", "0")]
    [InlineData("--fault-503-rate", "1.5")]
    [InlineData("--fault-503-rate", "0.6", "--drop-rate", "0.6")]
    [InlineData("--latency-ms", "-5")]
    public void Refuses_what_makes_no_sense(params string[] args) =>
        Assert.Throws<ArgumentException>(() => CommandLine.Parse(args));
}
