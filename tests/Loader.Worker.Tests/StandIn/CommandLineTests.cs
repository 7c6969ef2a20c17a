using Loader.CosmosStandIn;

namespace Loader.Worker.Tests.StandIn;

/// <summary>The stand-in's command line: every option to its setting, and a clear refusal naming the option at fault.</summary>
public sealed class CommandLineTests
{
    [Fact]
    public void Every_option_maps_to_its_setting()
    {
        var options = CommandLine.Parse([
            "--upstream", "http://127.0.0.1:20082", "--host", "127.0.0.1", "--port", "8081",
            "--ru-per-second", "5000", "--partition-ru-per-second", "1000", "--bucket-ru-per-second", "400",
            "--burst-seconds", "2", "--ru-per-kb", "10", "--instant", "true",
        ]);

        Assert.Equal(
            new StandInOptions
            {
                Upstream = new Uri("http://127.0.0.1:20082"),
                Host = "127.0.0.1",
                Port = 8081,
                RuPerSecond = 5000,
                PartitionRuPerSecond = 1000,
                BucketRuPerSecond = 400,
                BurstSeconds = 2,
                RuPerKilobyte = 10,
                Instant = true,
            },
            options);
    }

    [Fact]
    public void No_arguments_give_the_defaults_with_no_throughput_bucket_cap_and_not_instant()
    {
        var options = CommandLine.Parse([]);

        Assert.Equal(new StandInOptions(), options);
        Assert.Equal((0.0, false), (options.BucketRuPerSecond, options.Instant));
    }

    [Theory]
    [InlineData("--bucket-ru-per-second", "-1", "--bucket-ru-per-second must be 0 (off) or positive.")]
    [InlineData("--instant", "yes", "--instant 'yes' is not valid.")]
    public void A_wrong_value_is_refused_naming_its_option(string name, string value, string message)
    {
        var refused = Assert.Throws<ArgumentException>(() => CommandLine.Parse([name, value]));

        Assert.Equal(message, refused.Message);
    }
}
